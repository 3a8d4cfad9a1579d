# Compiled from templates/diff.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '3b002727a116d152f841893824e1ebe1e0987c21dc82d807f153e34e2384b84a'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'diff.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_diff = resolve('diff')
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    pass
    yield '**Host-records change '
    yield str(environment.finalize(t_1(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'base'))))
    yield ' → '
    yield str(environment.finalize(t_1(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'head'))))
    yield ': '
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'changes'))))
    yield ' change'
    yield str(environment.finalize(('' if (t_2(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'changes')) == 1) else 's')))
    if environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'loosening'):
        pass
        yield ', '
        yield str(environment.finalize(t_2(environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'loosening'))))
        yield ' loosening gating without a new approval'
    yield '**\n'
    if environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'changes'):
        pass
        yield '\n| Change | File | Id | Detail |\n|---|---|---|---|\n'
        for l_1_c in environment.getattr((undefined(name='diff') if l_0_diff is missing else l_0_diff), 'changes'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(t_3(environment.getattr(environment.getattr(l_1_c, 'kind'), 'value'))))
            if environment.getattr(l_1_c, 'unapproved'):
                pass
                yield ' (no new approval)'
            yield ' | '
            yield str(environment.finalize(t_1(environment.getattr(l_1_c, 'file'))))
            yield ' | '
            yield str(environment.finalize(t_1(environment.getattr(l_1_c, 'id'))))
            yield ' | '
            yield str(environment.finalize(t_3(environment.getattr(l_1_c, 'detail'))))
            yield ' |\n'
        l_1_c = missing
    else:
        pass
        yield '\nNo change to host records or authority.\n'

blocks = {}
debug_info = '2=31&3=44&7=47&8=51'
