# Compiled from templates/scorecard_rows.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = 'cbbc9d2acc5d6617b2dbd5ec6af35d0c52e41e5ecdd58d6c918b04f5e8838426'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'scorecard_rows.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_gate_row = l_0_other_row = missing
    try:
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_2 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    try:
        t_3 = environment.filters['reasons_text']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'reasons_text' found.")
    try:
        t_4 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    pass
    def macro(l_1_m):
        t_5 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_5.extend((
            '| **',
            str(environment.finalize(t_4(environment.getattr(l_1_m, 'status')))),
            '** | ',
            str(environment.finalize(t_1(environment.getattr(l_1_m, 'id')))),
            ' | ',
            str(environment.finalize(environment.getattr(l_1_m, 'value'))),
            ' | ',
            str(environment.finalize(environment.getattr(l_1_m, 'interval'))),
            ' | ',
            str(environment.finalize(environment.getattr(l_1_m, 'n'))),
            ' | ',
            str(environment.finalize(t_2(environment.getattr(l_1_m, 'threshold')))),
            ' | ',
            str(environment.finalize(t_2(environment.getattr(l_1_m, 'why')))),
        ))
        if environment.getattr(l_1_m, 'unverified'):
            pass
            t_5.extend((
                '; ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'unverified')))),
            ))
        if (environment.getattr(l_1_m, 'needed') and (environment.getattr(l_1_m, 'status') in ('fail', 'warn'))):
            pass
            t_5.extend((
                '<br>',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'needed')))),
            ))
        t_5.append(
            ' |',
        )
        return concat(t_5)
    context.exported_vars.add('gate_row')
    context.vars['gate_row'] = l_0_gate_row = Macro(environment, macro, 'gate_row', ('m',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_m):
        t_6 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_6.extend((
            '| ',
            str(environment.finalize(t_1(environment.getattr(l_1_m, 'id')))),
            ' | ',
            str(environment.finalize(environment.getattr(l_1_m, 'value'))),
            ' | ',
            str(environment.finalize(environment.getattr(l_1_m, 'n'))),
            ' | ',
            str(environment.finalize(t_2(t_3(environment.getattr(l_1_m, 'reasons'))))),
        ))
        if environment.getattr(l_1_m, 'unverified'):
            pass
            t_6.extend((
                '; ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'unverified')))),
            ))
        t_6.extend((
            ' | ',
            str(environment.finalize(t_2((t_3(environment.getattr(l_1_m, 'notes')) or '—')))),
            ' |',
        ))
        return concat(t_6)
    context.exported_vars.add('other_row')
    context.vars['other_row'] = l_0_other_row = Macro(environment, macro, 'other_row', ('m',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=36&4=75'
