# Compiled from templates/scorecard.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = 'd154d4f1b6b85d5e49302c7f62f5fe3dfb764140d074a35e5a00ca642f72dde3'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'scorecard.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_paint = resolve('paint')
    l_0_scorecard = resolve('scorecard')
    l_0_numbers = missing
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.filters['pad']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'pad' found.")
    try:
        t_4 = environment.filters['reasons_text']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'reasons_text' found.")
    try:
        t_5 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    try:
        t_6 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro(l_1_m):
        t_7 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        if environment.getattr(l_1_m, 'check'):
            pass
            t_7.extend((
                '      check: ',
                str(environment.finalize((environment.getattr(environment.getitem(environment.getattr(l_1_m, 'attempts'), -1), 'command') if environment.getattr(l_1_m, 'attempts') else 'not run'))),
            ))
        else:
            pass
            t_7.extend((
                '      value ',
                str(environment.finalize(environment.getattr(l_1_m, 'value'))),
                '  interval ',
                str(environment.finalize(environment.getattr(l_1_m, 'interval'))),
                '  n ',
                str(environment.finalize(environment.getattr(l_1_m, 'n'))),
                '  threshold ',
                str(environment.finalize(environment.getattr(l_1_m, 'threshold'))),
            ))
        return concat(t_7)
    context.exported_vars.add('numbers')
    context.vars['numbers'] = l_0_numbers = Macro(environment, macro, 'numbers', ('m',), False, False, False, context.eval_ctx.autoescape)
    yield str(environment.finalize(context.call((undefined(name='paint') if l_0_paint is missing else l_0_paint), environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'headline'), environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'verdict'), bold=True)))
    yield '\nmodel: '
    yield str(environment.finalize((environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'model') or '(not named by the outputs)')))
    yield '\nsources: '
    yield str(environment.finalize((t_1(context.eval_ctx, environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'sources'), ', ') or '(none)')))
    yield '\n'
    if environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'comparison'):
        pass
        yield str(environment.finalize(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'comparison')))
        yield '\n'
    if (not t_6(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_folder'))):
        pass
        yield 'records: '
        yield str(environment.finalize(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_folder')))
        if environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_commit'):
            pass
            yield ' as committed at '
            yield str(environment.finalize(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_ref')))
            yield ', commit '
            yield str(environment.finalize(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_commit')))
        yield '\n'
    if (environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'source') != 'default'):
        pass
        yield 'success policy ('
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'source')))
        yield '): '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'text')))
        yield '\n'
    for l_1_line in environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'details'):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.finalize(l_1_line))
        yield '\n'
    l_1_line = missing
    yield '\nGates that decided ('
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'gates'))))
    yield ')\n'
    l_1_loop = missing
    t_8 = 1
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'gates'), undefined):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.finalize(context.call((undefined(name='paint') if l_0_paint is missing else l_0_paint), t_3(t_5(environment.getattr(l_1_m, 'status')), 8), environment.getattr(l_1_m, 'status'), bold=True, _loop_vars=_loop_vars)))
        yield ' '
        yield str(environment.finalize(environment.getattr(l_1_m, 'id')))
        yield '\n'
        yield str(environment.finalize(context.call((undefined(name='numbers') if l_0_numbers is missing else l_0_numbers), l_1_m, _loop_vars=_loop_vars)))
        yield '\n'
        if environment.getattr(l_1_m, 'missing'):
            pass
            yield '      missing samples: '
            yield str(environment.finalize(environment.getattr(l_1_m, 'missing')))
            yield '\n'
        yield '      '
        yield str(environment.finalize(environment.getattr(l_1_m, 'why')))
        yield '\n'
        l_2_loop = missing
        for l_2_a, l_2_loop in LoopContext(environment.getattr(l_1_m, 'attempts'), undefined):
            l_2_attempt = missing
            _loop_vars = {}
            pass
            l_2_attempt = environment.getattr(l_2_loop, 'index')
            _loop_vars['attempt'] = l_2_attempt
            if (environment.getattr(l_2_a, 'outcome') != 'passed'):
                pass
                def t_9(fiter):
                    for (l_3_stream, l_3_lines) in fiter:
                        if l_3_lines:
                            yield (l_3_stream, l_3_lines)
                for (l_3_stream, l_3_lines) in t_9((('stdout', environment.getattr(l_2_a, 'stdout_tail')), ('stderr', environment.getattr(l_2_a, 'stderr_tail')))):
                    _loop_vars = {}
                    pass
                    yield '      attempt '
                    yield str(environment.finalize((undefined(name='attempt') if l_2_attempt is missing else l_2_attempt)))
                    yield ', the last lines of '
                    yield str(environment.finalize(l_3_stream))
                    yield ':\n'
                    for l_4_line in l_3_lines:
                        _loop_vars = {}
                        pass
                        yield '        | '
                        yield str(environment.finalize(l_4_line))
                        yield '\n'
                    l_4_line = missing
                l_3_stream = l_3_lines = missing
        l_2_loop = l_2_a = l_2_attempt = missing
        if environment.getattr(l_1_m, 'unverified'):
            pass
            yield '      '
            yield str(environment.finalize(environment.getattr(l_1_m, 'unverified')))
            yield '\n'
        if environment.getattr(l_1_m, 'change'):
            pass
            yield '      compared: '
            yield str(environment.finalize(environment.getattr(l_1_m, 'change')))
            yield '\n'
        if (environment.getattr(l_1_m, 'needed') and (environment.getattr(l_1_m, 'status') in ('fail', 'warn'))):
            pass
            yield '      '
            yield str(environment.finalize(environment.getattr(l_1_m, 'needed')))
            yield '\n'
        for l_2_run in environment.getattr(l_1_m, 'earlier_runs'):
            _loop_vars = {}
            pass
            yield '      earlier run: '
            yield str(environment.finalize(environment.getattr(l_2_run, 'source')))
            yield ' ('
            yield str(environment.finalize(environment.getattr(l_2_run, 'started')))
            yield '): value '
            yield str(environment.finalize(environment.getattr(l_2_run, 'value')))
            yield ', n '
            yield str(environment.finalize(environment.getattr(l_2_run, 'n')))
            yield '\n'
        l_2_run = missing
        t_8 = 0
    l_1_loop = l_1_m = missing
    if t_8:
        pass
        yield '  none: no metric could gate\n'
    yield '\nNot enforced ('
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others'))))
    yield ')\n'
    for l_1_m in environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others'):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.finalize(context.call((undefined(name='paint') if l_0_paint is missing else l_0_paint), t_3(('NOT RUN' if (environment.getattr(l_1_m, 'status') == 'not_run') else 'INFO'), 8), environment.getattr(l_1_m, 'status'), _loop_vars=_loop_vars)))
        yield ' '
        yield str(environment.finalize(environment.getattr(l_1_m, 'id')))
        yield '\n'
        yield str(environment.finalize(context.call((undefined(name='numbers') if l_0_numbers is missing else l_0_numbers), l_1_m, _loop_vars=_loop_vars)))
        yield '\n'
        if environment.getattr(l_1_m, 'attempts'):
            pass
            yield '      found: '
            yield str(environment.finalize(environment.getattr(l_1_m, 'found')))
            yield '\n'
        yield '      why: '
        yield str(environment.finalize(t_4(environment.getattr(l_1_m, 'reasons'))))
        yield '\n'
        if environment.getattr(l_1_m, 'unverified'):
            pass
            yield '      '
            yield str(environment.finalize(environment.getattr(l_1_m, 'unverified')))
            yield '\n'
        if environment.getattr(l_1_m, 'change'):
            pass
            yield '      compared: '
            yield str(environment.finalize(environment.getattr(l_1_m, 'change')))
            yield '\n'
        if environment.getattr(l_1_m, 'notes'):
            pass
            yield '      would block once promoted: '
            yield str(environment.finalize(t_4(environment.getattr(l_1_m, 'notes'))))
            yield '\n'
    l_1_m = missing

blocks = {}
debug_info = '3=50&4=76&5=78&6=80&7=82&8=84&10=86&11=89&14=97&15=100&17=104&18=108&21=112&22=116&23=120&24=124&25=126&26=129&28=132&30=135&31=139&32=141&33=143&34=151&35=155&36=159&41=164&42=167&44=169&45=172&47=174&48=177&50=179&51=183&57=198&58=200&59=204&60=208&61=210&62=213&64=216&65=218&66=221&68=223&69=226&71=228&72=231'
