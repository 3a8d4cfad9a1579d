# Compiled from templates/doctor.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '8d7deb02529aa8e4859dc500cb178778106afe98f946fc0d7c383fcfb365b5c3'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'doctor.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_diagnosis = resolve('diagnosis')
    pass
    for l_1_f in environment.getattr((undefined(name='diagnosis') if l_0_diagnosis is missing else l_0_diagnosis), 'findings'):
        _loop_vars = {}
        pass
        yield str(environment.finalize(environment.getattr(l_1_f, 'where')))
        yield ': '
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_f, 'severity'), 'value')))
        yield ': '
        yield str(environment.finalize(environment.getattr(l_1_f, 'message')))
        yield ' ['
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_f, 'problem'), 'value')))
        yield ']\n'
    l_1_f = missing
    yield str(environment.finalize(environment.getattr((undefined(name='diagnosis') if l_0_diagnosis is missing else l_0_diagnosis), 'summary')))
    yield '\n'

blocks = {}
debug_info = '2=12&3=15&5=24'
