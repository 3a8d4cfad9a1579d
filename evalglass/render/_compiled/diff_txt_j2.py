# Compiled from templates/diff.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '6e7ddc8f0d1450dc0141a248852d7af1a78fe4ca198c9aa8e1a49582c3ee82b7'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'diff.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_diff = resolve('diff')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_2 = environment.filters['pad']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'pad' found.")
    pass
    yield 'Host-records change '
    yield str(environment.finalize(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'base')))
    yield ' → '
    yield str(environment.finalize(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'head')))
    yield ': '
    yield str(environment.finalize(t_1(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'changes'))))
    yield ' change'
    yield str(environment.finalize(('' if (t_1(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'changes')) == 1) else 's')))
    if environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'loosening'):
        pass
        yield ', '
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'loosening'))))
        yield ' loosening gating without a new approval'
    yield '\n'
    t_3 = 1
    for l_1_c in environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'changes'):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.finalize(t_2(environment.getattr(environment.getattr(l_1_c, 'kind'), 'value'), 20)))
        yield ' '
        yield str(environment.finalize(t_2(environment.getattr(l_1_c, 'file'), 16)))
        yield ' '
        yield str(environment.finalize(environment.getattr(l_1_c, 'id')))
        if environment.getattr(l_1_c, 'unapproved'):
            pass
            yield '  (no new approval)'
        yield '\n      '
        yield str(environment.finalize(environment.getattr(l_1_c, 'detail')))
        yield '\n'
        t_3 = 0
    l_1_c = missing
    if t_3:
        pass
        yield '  no change to host records or authority\n'

blocks = {}
debug_info = '1=25&3=39&4=43&6=52'
