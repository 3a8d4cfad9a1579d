# Compiled from templates/scorecard_rows.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '20d8384f898e7f701c561811e9f9306f7c65c1ba9bf9dca5b1cf851c2d0daf6a'
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
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro(l_1_m):
        t_6 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_6.extend((
            '| **',
            str(environment.finalize(t_4(environment.getattr(l_1_m, 'word')))),
            '** | ',
            str(environment.finalize(t_1(environment.getattr(l_1_m, 'id')))),
            ' | ',
            str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'value'))),
            ' | ',
            str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'interval'))),
            ' | ',
            str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'n'))),
            ' | ',
            str(environment.finalize(t_2(environment.getattr(environment.getattr(l_1_m, 'text'), 'threshold')))),
            ' |',
        ))
        return concat(t_6)
    context.exported_vars.add('gate_row')
    context.vars['gate_row'] = l_0_gate_row = Macro(environment, macro, 'gate_row', ('m',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_m):
        t_7 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_7.extend((
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
            t_7.extend((
                '  - ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'unverified')))),
                '\n',
            ))
        if (environment.getattr(l_1_m, 'needed') and (environment.getattr(l_1_m, 'status') in ('fail', 'warn'))):
            pass
            t_7.extend((
                '  - ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'needed')))),
                '\n',
            ))
        if environment.getattr(l_1_m, 'costly'):
            pass
            t_7.extend((
                '  - samples that cost it most, in ',
                str(environment.finalize(t_1(environment.getattr(environment.getitem(environment.getattr(l_1_m, 'costly'), 0), 'source')))),
                ': ',
            ))
            l_2_loop = missing
            for l_2_s, l_2_loop in LoopContext(environment.getattr(l_1_m, 'costly'), undefined):
                _loop_vars = {}
                pass
                t_7.append(
                    str(environment.finalize(t_1(environment.getattr(l_2_s, 'id')))),
                )
                if (not t_5(environment.getattr(l_2_s, 'epoch'))):
                    pass
                    t_7.extend((
                        ' epoch ',
                        str(environment.finalize(environment.getattr(l_2_s, 'epoch'))),
                    ))
                t_7.extend((
                    ' (',
                    str(environment.finalize(environment.getattr(l_2_s, 'score_text'))),
                    ')',
                    str(environment.finalize((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 15 in 'scorecard_rows.md.j2' evaluated to false and no else section was defined.")))),
                ))
            l_2_loop = l_2_s = missing
            if environment.getattr(l_1_m, 'open_with'):
                pass
                t_7.extend((
                    '; open them with ',
                    str(environment.finalize(t_1(environment.getattr(l_1_m, 'open_with')))),
                ))
            t_7.append(
                '\n',
            )
        l_2_loop = missing
        for l_2_a, l_2_loop in LoopContext(environment.getattr(l_1_m, 'attempts'), undefined):
            l_2_attempt = missing
            _loop_vars = {}
            pass
            l_2_attempt = environment.getattr(l_2_loop, 'index')
            _loop_vars['attempt'] = l_2_attempt
            if (environment.getattr(l_2_a, 'outcome') != 'passed'):
                pass
                def t_8(fiter):
                    for (l_3_stream, l_3_lines) in fiter:
                        if l_3_lines:
                            yield (l_3_stream, l_3_lines)
                for (l_3_stream, l_3_lines) in t_8((('stdout', environment.getattr(l_2_a, 'stdout_tail')), ('stderr', environment.getattr(l_2_a, 'stderr_tail')))):
                    _loop_vars = {}
                    pass
                    t_7.extend((
                        '  - attempt ',
                        str(environment.finalize((undefined(name='attempt') if l_2_attempt is missing else l_2_attempt))),
                        ', the last lines of ',
                        str(environment.finalize(l_3_stream)),
                        ':',
                    ))
                    for l_4_line in l_3_lines:
                        _loop_vars = {}
                        pass
                        t_7.extend((
                            '<br>',
                            str(environment.finalize(t_1(l_4_line))),
                        ))
                    l_4_line = missing
                    t_7.append(
                        '\n',
                    )
                l_3_stream = l_3_lines = missing
        l_2_loop = l_2_a = l_2_attempt = missing
        return concat(t_7)
    context.exported_vars.add('gate_detail')
    context.vars['gate_detail'] = l_0_gate_detail = Macro(environment, macro, 'gate_detail', ('m',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_m):
        t_9 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        t_9.extend((
            '| ',
            str(environment.finalize(t_1(environment.getattr(l_1_m, 'id')))),
            ' | ',
            str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'value'))),
            ' | ',
            str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'n'))),
            ' | ',
            str(environment.finalize(t_2(t_3(environment.getattr(l_1_m, 'reasons'))))),
        ))
        if environment.getattr(l_1_m, 'unverified'):
            pass
            t_9.extend((
                '; ',
                str(environment.finalize(t_2(environment.getattr(l_1_m, 'unverified')))),
            ))
        t_9.extend((
            ' | ',
            str(environment.finalize(t_2((t_3(environment.getattr(l_1_m, 'notes')) or '—')))),
            ' |',
        ))
        return concat(t_9)
    context.exported_vars.add('other_row')
    context.vars['other_row'] = l_0_other_row = Macro(environment, macro, 'other_row', ('m',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=42&6=65&7=72&8=79&9=83&11=86&12=90&14=93&15=97&18=130&19=134&20=136&21=138&22=147&28=168'
