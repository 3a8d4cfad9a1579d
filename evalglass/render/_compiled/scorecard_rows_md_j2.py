# Compiled from templates/scorecard_rows.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '2808dc93d63a5bb8ff379a5e36ff381532f5eae4d11b68afd153f6907cdf6e91'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'scorecard_rows.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_gate_row = l_0_gate_detail = l_0_other_row = missing
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
            str(environment.finalize(t_4(environment.getattr(l_1_m, 'word')))),
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
            ' |',
        ))
        return concat(t_5)
    context.exported_vars.add('gate_row')
    context.vars['gate_row'] = l_0_gate_row = Macro(environment, macro, 'gate_row', ('m',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_m):
        t_6 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_6.extend((
            '- **',
            str(environment.finalize(t_4(environment.getattr(l_1_m, 'word')))),
            '** ',
            str(environment.finalize(t_1(environment.getattr(l_1_m, 'id')))),
            ': ',
            str(environment.finalize(t_2(environment.getattr(l_1_m, 'why')))),
            '\n',
        ))
        if environment.getattr(l_1_m, 'unverified'):
            pass
            t_6.extend((
                '  - ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'unverified')))),
                '\n',
            ))
        if (environment.getattr(l_1_m, 'needed') and (environment.getattr(l_1_m, 'status') in ('fail', 'warn'))):
            pass
            t_6.extend((
                '  - ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'needed')))),
                '\n',
            ))
        l_2_loop = missing
        for l_2_a, l_2_loop in LoopContext(environment.getattr(l_1_m, 'attempts'), undefined):
            l_2_attempt = missing
            _loop_vars = {}
            pass
            l_2_attempt = environment.getattr(l_2_loop, 'index')
            _loop_vars['attempt'] = l_2_attempt
            if (environment.getattr(l_2_a, 'outcome') != 'passed'):
                pass
                def t_7(fiter):
                    for (l_3_stream, l_3_lines) in fiter:
                        if l_3_lines:
                            yield (l_3_stream, l_3_lines)
                for (l_3_stream, l_3_lines) in t_7((('stdout', environment.getattr(l_2_a, 'stdout_tail')), ('stderr', environment.getattr(l_2_a, 'stderr_tail')))):
                    _loop_vars = {}
                    pass
                    t_6.extend((
                        '  - attempt ',
                        str(environment.finalize((undefined(name='attempt') if l_2_attempt is missing else l_2_attempt))),
                        ', the last lines of ',
                        str(environment.finalize(l_3_stream)),
                        ':',
                    ))
                    for l_4_line in l_3_lines:
                        _loop_vars = {}
                        pass
                        t_6.extend((
                            '<br>',
                            str(environment.finalize(t_1(l_4_line))),
                        ))
                    l_4_line = missing
                    t_6.append(
                        '\n',
                    )
                l_3_stream = l_3_lines = missing
        l_2_loop = l_2_a = l_2_attempt = missing
        return concat(t_6)
    context.exported_vars.add('gate_detail')
    context.vars['gate_detail'] = l_0_gate_detail = Macro(environment, macro, 'gate_detail', ('m',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_m):
        t_8 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_8.extend((
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
            t_8.extend((
                '; ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'unverified')))),
            ))
        t_8.extend((
            ' | ',
            str(environment.finalize(t_2((t_3(environment.getattr(l_1_m, 'notes')) or '—')))),
            ' |',
        ))
        return concat(t_8)
    context.exported_vars.add('other_row')
    context.vars['other_row'] = l_0_other_row = Macro(environment, macro, 'other_row', ('m',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=36&6=59&7=66&8=73&9=77&11=80&12=84&14=88&15=92&16=94&17=96&18=105&24=126'
