# Compiled from templates/trend.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '6e66cb8c554f0691d89f56cbb2bb8a9ee647f2490c8040aa65a9a5c097146157'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'trend.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_v = resolve('v')
    l_0_trend = resolve('trend')
    l_0_codes = missing
    try:
        t_1 = environment.filters['pad']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'pad' found.")
    try:
        t_2 = environment.filters['plain']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'plain' found.")
    try:
        t_3 = environment.filters['string']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'string' found.")
    pass
    def macro(l_1_reasons):
        t_4 = []
        if l_1_reasons is missing:
            l_1_reasons = undefined("parameter 'reasons' was not provided", name='reasons')
        pass
        l_2_loop = missing
        for l_2_r, l_2_loop in LoopContext(l_1_reasons, undefined):
            _loop_vars = {}
            pass
            t_4.extend((
                str(environment.finalize(t_2(l_2_r))),
                str(environment.finalize((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 2 in 'trend.txt.j2' evaluated to false and no else section was defined.")))),
            ))
        l_2_loop = l_2_r = missing
        return concat(t_4)
    context.exported_vars.add('codes')
    context.vars['codes'] = l_0_codes = Macro(environment, macro, 'codes', ('reasons',), False, False, False, context.eval_ctx.autoescape)
    yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'heading'), (undefined(name='trend') if l_0_trend is missing else l_0_trend))))
    yield '\n'
    yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'order_note'), (undefined(name='trend') if l_0_trend is missing else l_0_trend))))
    yield '\n\nRuns\n'
    for l_1_run in environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'runs'):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.finalize(context.call(environment.getattr(t_3(environment.getattr(l_1_run, 'position')), 'rjust'), 4, _loop_vars=_loop_vars)))
        yield '  '
        yield str(environment.finalize(t_1(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'when'), l_1_run, _loop_vars=_loop_vars), 16)))
        yield '  '
        yield str(environment.finalize(t_1(environment.getattr(l_1_run, 'verdict'), 13)))
        yield '  '
        yield str(environment.finalize(t_2(environment.getattr(l_1_run, 'source'))))
        yield '\n'
    l_1_run = missing
    if (not environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'series')):
        pass
        yield '\nNo metric in these scorecards.\n'
    for l_1_s in environment.getattr((undefined(name='trend') if l_0_trend is missing else l_0_trend), 'series'):
        l_1_last = l_1_shown = l_1_left_out = missing
        _loop_vars = {}
        pass
        l_1_last = environment.getattr(l_1_s, 'last')
        _loop_vars['last'] = l_1_last
        yield '\n'
        yield str(environment.finalize(t_2(environment.getattr(l_1_s, 'id'))))
        if context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'presence'), (undefined(name='trend') if l_0_trend is missing else l_0_trend), l_1_s, _loop_vars=_loop_vars):
            pass
            yield '  ('
            yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'presence'), (undefined(name='trend') if l_0_trend is missing else l_0_trend), l_1_s, _loop_vars=_loop_vars)))
            yield ')'
        yield '\n  value      '
        yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'sparkline'), l_1_s, _loop_vars=_loop_vars)))
        yield '  '
        yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'range_text'), l_1_s, _loop_vars=_loop_vars)))
        yield '\n  last       value '
        yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'value_text'), (undefined(name='last') if l_1_last is missing else l_1_last), _loop_vars=_loop_vars)))
        yield '  interval '
        yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'interval_text'), (undefined(name='last') if l_1_last is missing else l_1_last), _loop_vars=_loop_vars)))
        yield '  n '
        yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'n_text'), (undefined(name='last') if l_1_last is missing else l_1_last), _loop_vars=_loop_vars)))
        yield '\n  threshold  '
        yield str(environment.finalize(t_2(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'rule_text'), environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'rule'), _loop_vars=_loop_vars))))
        yield '\n'
        (l_1_shown, l_1_left_out) = context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'latest'), environment.getattr(l_1_s, 'threshold_changes'), _loop_vars=_loop_vars)
        _loop_vars.update({'left_out': l_1_left_out, 'shown': l_1_shown})
        if (undefined(name='left_out') if l_1_left_out is missing else l_1_left_out):
            pass
            yield '             ('
            yield str(environment.finalize((undefined(name='left_out') if l_1_left_out is missing else l_1_left_out)))
            yield ' earlier change'
            yield str(environment.finalize(('' if ((undefined(name='left_out') if l_1_left_out is missing else l_1_left_out) == 1) else 's')))
            yield ')\n'
        for l_2_c in (undefined(name='shown') if l_1_shown is missing else l_1_shown):
            _loop_vars = {}
            pass
            yield '             run '
            yield str(environment.finalize(environment.getattr(l_2_c, 'position')))
            yield ': '
            yield str(environment.finalize(t_2(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'rule_text'), environment.getattr(l_2_c, 'before'), _loop_vars=_loop_vars))))
            yield ' → '
            yield str(environment.finalize(t_2(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'rule_text'), environment.getattr(l_2_c, 'after'), _loop_vars=_loop_vars))))
            yield '\n'
        l_2_c = missing
        yield '  authority  '
        yield str(environment.finalize(environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'outcome')))
        if environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'reasons'):
            pass
            yield ' ('
            yield str(environment.finalize(context.call((undefined(name='codes') if l_0_codes is missing else l_0_codes), environment.getattr((undefined(name='last') if l_1_last is missing else l_1_last), 'reasons'), _loop_vars=_loop_vars)))
            yield ')'
        yield '\n'
        (l_1_shown, l_1_left_out) = context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'latest'), environment.getattr(l_1_s, 'authority_changes'), _loop_vars=_loop_vars)
        _loop_vars.update({'left_out': l_1_left_out, 'shown': l_1_shown})
        if (undefined(name='left_out') if l_1_left_out is missing else l_1_left_out):
            pass
            yield '             ('
            yield str(environment.finalize((undefined(name='left_out') if l_1_left_out is missing else l_1_left_out)))
            yield ' earlier change'
            yield str(environment.finalize(('' if ((undefined(name='left_out') if l_1_left_out is missing else l_1_left_out) == 1) else 's')))
            yield ')\n'
        for l_2_c in (undefined(name='shown') if l_1_shown is missing else l_1_shown):
            _loop_vars = {}
            pass
            yield '             '
            yield str(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_0_v is missing else l_0_v), 'change_text'), l_2_c, _loop_vars=_loop_vars)))
            if environment.getattr(l_2_c, 'reasons'):
                pass
                yield ' ('
                yield str(environment.finalize(context.call((undefined(name='codes') if l_0_codes is missing else l_0_codes), environment.getattr(l_2_c, 'reasons'), _loop_vars=_loop_vars)))
                yield ')'
            elif environment.getattr(l_2_c, 'cleared'):
                pass
                yield ' (cleared '
                yield str(environment.finalize(context.call((undefined(name='codes') if l_0_codes is missing else l_0_codes), environment.getattr(l_2_c, 'cleared'), _loop_vars=_loop_vars)))
                yield ')'
            yield '\n'
        l_2_c = missing
    l_1_s = l_1_last = l_1_shown = l_1_left_out = missing

blocks = {}
debug_info = '2=32&3=49&4=51&7=53&8=57&10=66&14=69&15=73&17=76&19=83&20=87&21=93&22=95&23=97&24=100&26=104&27=108&29=116&31=123&32=125&33=128&35=132&36=136'
