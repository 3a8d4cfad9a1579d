# Compiled from templates/trend.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '41df3f27685bfb50eff05bb5fac3837a2dfb3ccf0770a6b489a68d9b4cf7ef65'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'trend.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_v = resolve('v')
    l_0_trend = resolve('trend')
    l_0_codes = l_0_earlier = l_0_threshold_changes = l_0_authority_changes = missing
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
    try:
        t_4 = environment.filters['trim']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'trim' found.")
    pass
    def macro(l_1_reasons):
        t_5 = []
        if l_1_reasons is missing:
            l_1_reasons = undefined("parameter 'reasons' was not provided", name='reasons')
        pass
        l_2_loop = missing
        for l_2_r, l_2_loop in LoopContext(l_1_reasons, undefined):
            _loop_vars = {}
            pass
            t_5.extend((
                str(environment.finalize(t_1(l_2_r))),
                str(environment.finalize((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 2 in 'trend.md.j2' evaluated to false and no else section was defined.")))),
            ))
        l_2_loop = l_2_r = missing
        return concat(t_5)
    context.exported_vars.add('codes')
    context.vars['codes'] = l_0_codes = Macro(environment, macro, 'codes', ('reasons',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_left_out):
        t_6 = []
        if l_1_left_out is missing:
            l_1_left_out = undefined("parameter 'left_out' was not provided", name='left_out')
        pass
        if l_1_left_out:
            pass
            t_6.extend((
                '<br>and ',
                str(environment.finalize(l_1_left_out)),
                ' earlier change',
                str(environment.finalize(('' if (l_1_left_out == 1) else 's'))),
            ))
        return concat(t_6)
    context.exported_vars.add('earlier')
    context.vars['earlier'] = l_0_earlier = Macro(environment, macro, 'earlier', ('left_out',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s):
        t_7 = []
        l_1_shown = l_1_left_out = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        (l_1_shown, l_1_left_out) = context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'latest'), environment.getattr(l_1_s, 'threshold_changes'))
        t_7.append(
            str(environment.finalize(context.call((undefined(name='earlier') if l_0_earlier is missing else l_0_earlier), (undefined(name='left_out') if l_1_left_out is missing else l_1_left_out)))),
        )
        for l_2_c in (undefined(name='shown') if l_1_shown is missing else l_1_shown):
            _loop_vars = {}
            pass
            t_7.extend((
                '<br>run ',
                str(environment.finalize(environment.getattr(l_2_c, 'position'))),
                ': ',
                str(environment.finalize(t_3(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'rule_text'), environment.getattr(l_2_c, 'before'), _loop_vars=_loop_vars)))),
                ' → ',
                str(environment.finalize(t_3(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'rule_text'), environment.getattr(l_2_c, 'after'), _loop_vars=_loop_vars)))),
            ))
        l_2_c = missing
        return concat(t_7)
    context.exported_vars.add('threshold_changes')
    context.vars['threshold_changes'] = l_0_threshold_changes = Macro(environment, macro, 'threshold_changes', ('s',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s):
        t_8 = []
        l_1_shown = l_1_left_out = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        (l_1_shown, l_1_left_out) = context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'latest'), environment.getattr(l_1_s, 'authority_changes'))
        t_8.append(
            str(environment.finalize(context.call((undefined(name='earlier') if l_0_earlier is missing else l_0_earlier), (undefined(name='left_out') if l_1_left_out is missing else l_1_left_out)))),
        )
        for l_2_c in (undefined(name='shown') if l_1_shown is missing else l_1_shown):
            _loop_vars = {}
            pass
            t_8.extend((
                '<br>',
                str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'change_text'), l_2_c, _loop_vars=_loop_vars))),
            ))
            if environment.getattr(l_2_c, 'reasons'):
                pass
                t_8.extend((
                    ' (',
                    str(environment.finalize(context.call((undefined(name='codes') if l_0_codes is missing else l_0_codes), environment.getattr(l_2_c, 'reasons'), _loop_vars=_loop_vars))),
                    ')',
                ))
            elif environment.getattr(l_2_c, 'cleared'):
                pass
                t_8.extend((
                    ' (cleared ',
                    str(environment.finalize(context.call((undefined(name='codes') if l_0_codes is missing else l_0_codes), environment.getattr(l_2_c, 'cleared'), _loop_vars=_loop_vars))),
                    ')',
                ))
        l_2_c = missing
        return concat(t_8)
    context.exported_vars.add('authority_changes')
    context.vars['authority_changes'] = l_0_authority_changes = Macro(environment, macro, 'authority_changes', ('s',), False, False, False, context.eval_ctx.autoescape)
    yield '<!-- evalglass-trend -->\n**'
    yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'heading'), (undefined(name='trend') if l_0_trend is missing else l_0_trend))))
    yield '**\n\n'
    yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'order_note'), (undefined(name='trend') if l_0_trend is missing else l_0_trend))))
    yield '\n'
    if environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'series'):
        pass
        yield '\n| Metric | Value over '
        yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'spark_label'), (undefined(name='trend') if l_0_trend is missing else l_0_trend))))
        yield ' | Range | Last value | Interval | n | Threshold | Authority |\n|---|---|---|---|---|---|---|---|\n'
        for l_1_s in environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'series'):
            l_1_last = missing
            _loop_vars = {}
            pass
            l_1_last = environment.getattr(l_1_s, 'last')
            _loop_vars['last'] = l_1_last
            yield '| '
            yield str(environment.finalize(t_1(environment.getattr(l_1_s, 'id'))))
            if context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'presence'), (undefined(name='trend') if l_0_trend is missing else l_0_trend), l_1_s, _loop_vars=_loop_vars):
                pass
                yield ' ('
                yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'presence'), (undefined(name='trend') if l_0_trend is missing else l_0_trend), l_1_s, _loop_vars=_loop_vars)))
                yield ')'
            yield ' | '
            yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'sparkline'), l_1_s, _loop_vars=_loop_vars)))
            yield ' | '
            yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'range_text'), l_1_s, _loop_vars=_loop_vars)))
            yield ' | '
            yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'value_text'), (undefined(name='last') if l_1_last is missing else l_1_last), _loop_vars=_loop_vars)))
            yield ' | '
            yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'interval_text'), (undefined(name='last') if l_1_last is missing else l_1_last), _loop_vars=_loop_vars)))
            yield ' | '
            yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'n_text'), (undefined(name='last') if l_1_last is missing else l_1_last), _loop_vars=_loop_vars)))
            yield ' | '
            yield str(environment.finalize(t_3(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'rule_text'), environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'rule'), _loop_vars=_loop_vars))))
            yield str(environment.finalize(t_4(context.call((undefined(name='threshold_changes') if l_0_threshold_changes is missing else l_0_threshold_changes), l_1_s, _loop_vars=_loop_vars))))
            yield ' | '
            yield str(environment.finalize(environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'outcome')))
            if environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'reasons'):
                pass
                yield ' ('
                yield str(environment.finalize(context.call((undefined(name='codes') if l_0_codes is missing else l_0_codes), environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'reasons'), _loop_vars=_loop_vars)))
                yield ')'
            yield str(environment.finalize(t_4(context.call((undefined(name='authority_changes') if l_0_authority_changes is missing else l_0_authority_changes), l_1_s, _loop_vars=_loop_vars))))
            yield ' |\n'
        l_1_s = l_1_last = missing
    else:
        pass
        yield '\nNo metric in these scorecards.\n'
    yield '\n<details><summary>'
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'runs'))))
    yield ' run'
    yield str(environment.finalize(('' if (t_2(environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'runs')) == 1) else 's')))
    yield '</summary>\n\n| Run | Evaluated at | Verdict | Scorecard |\n|---|---|---|---|\n'
    for l_1_run in environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'runs'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_run, 'position')))
        yield ' | '
        yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'when'), l_1_run, _loop_vars=_loop_vars)))
        yield ' | '
        yield str(environment.finalize(t_3(environment.getattr(l_1_run, 'verdict'))))
        yield ' | '
        yield str(environment.finalize(t_1(environment.getattr(l_1_run, 'source'))))
        yield ' |\n'
    l_1_run = missing
    yield '\n</details>\n'

blocks = {}
debug_info = '2=38&3=55&4=71&5=77&6=79&8=96&9=102&10=104&13=132&15=134&16=136&18=139&20=141&21=145&22=148&29=181&33=185&34=189'
