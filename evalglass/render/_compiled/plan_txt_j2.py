# Compiled from templates/plan.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '058060b14442d4c7ffd8262c5dacfb21edebc92349c6f96c1c38fbc83c632281'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'plan.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_p = resolve('p')
    l_0_num = resolve('num')
    try:
        t_1 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_2 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    if (not t_2(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'n'))):
        pass
        yield str(environment.finalize(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'metric')))
        yield ': plan for n '
        yield str(environment.finalize(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'n')))
        yield ': at a true value of '
        yield str(environment.finalize(context.call((undefined(name='num') if l_0_num is missing else l_0_num), environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'expect'))))
        yield ', the gate passes with probability '
        yield str(environment.finalize(t_1('%.3f', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'achieved'))))
        yield ' (asked: at least '
        yield str(environment.finalize(context.call((undefined(name='num') if l_0_num is missing else l_0_num), environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'power'))))
        yield ')\n'
    else:
        pass
        yield str(environment.finalize(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'metric')))
        yield ': no n to plan for at a true value of '
        yield str(environment.finalize(context.call((undefined(name='num') if l_0_num is missing else l_0_num), environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'expect'))))
        yield ': '
        yield str(environment.finalize(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'reason')))
        yield '\n'
    yield '  method: '
    yield str(environment.finalize(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'method')))
    yield '\n'

blocks = {}
debug_info = '2=25&3=27&5=39&7=46'
