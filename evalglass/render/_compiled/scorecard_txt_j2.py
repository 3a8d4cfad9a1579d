# Compiled from templates/scorecard.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '9200ae1b5e718fadade78da143691862b76c821d0f483e80891dadcbf5175e37'
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
        t_3 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_4 = environment.filters['pad']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'pad' found.")
    try:
        t_5 = environment.filters['reasons_text']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'reasons_text' found.")
    try:
        t_6 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    try:
        t_7 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro(l_1_m):
        t_8 = []
        if l_1_m is missing:
            l_1_m = undefined("parameter 'm' was not provided", name='m')
        pass
        if environment.getattr(l_1_m, 'check'):
            pass
            t_8.extend((
                '      check: ',
                str(environment.finalize((environment.getattr(environment.getitem(environment.getattr(l_1_m, 'attempts'), -1), 'command') if environment.getattr(l_1_m, 'attempts') else 'not run'))),
            ))
        else:
            pass
            t_8.extend((
                '      value ',
                str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'value'))),
                '  interval ',
                str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'interval'))),
                '  n ',
                str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'n'))),
                '  threshold ',
                str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'text'), 'threshold'))),
            ))
        return concat(t_8)
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
    if (not t_7(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_folder'))):
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
    t_9 = 1
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'gates'), undefined):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.finalize(context.call((undefined(name='paint') if l_0_paint is missing else l_0_paint), t_4(t_6(environment.getattr(l_1_m, 'status')), 8), environment.getattr(l_1_m, 'status'), bold=True, _loop_vars=_loop_vars)))
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
                def t_10(fiter):
                    for (l_3_stream, l_3_lines) in fiter:
                        if l_3_lines:
                            yield (l_3_stream, l_3_lines)
                for (l_3_stream, l_3_lines) in t_10((('stdout', environment.getattr(l_2_a, 'stdout_tail')), ('stderr', environment.getattr(l_2_a, 'stderr_tail')))):
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
        if environment.getattr(l_1_m, 'costly'):
            pass
            yield '      samples that cost it most, in '
            yield str(environment.finalize(environment.getattr(environment.getitem(environment.getattr(l_1_m, 'costly'), 0), 'source')))
            yield ': '
            yield str(environment.finalize(t_1(context.eval_ctx, t_3(context, environment.getattr(l_1_m, 'costly'), attribute='text'), ', ')))
            yield '\n'
            if environment.getattr(l_1_m, 'open_with'):
                pass
                yield '      open them with: '
                yield str(environment.finalize(environment.getattr(l_1_m, 'open_with')))
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
        t_9 = 0
    l_1_loop = l_1_m = missing
    if t_9:
        pass
        yield '  none: no metric could gate\n'
    yield '\nNot enforced ('
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others'))))
    yield ')\n'
    for l_1_m in environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others'):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.finalize(context.call((undefined(name='paint') if l_0_paint is missing else l_0_paint), t_4(('NOT RUN' if (environment.getattr(l_1_m, 'status') == 'not_run') else 'INFO'), 8), environment.getattr(l_1_m, 'status'), _loop_vars=_loop_vars)))
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
        yield str(environment.finalize(t_5(environment.getattr(l_1_m, 'reasons'))))
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
            yield str(environment.finalize(t_5(environment.getattr(l_1_m, 'notes'))))
            yield '\n'
    l_1_m = missing

blocks = {}
debug_info = '3=56&4=82&5=84&6=86&7=88&8=90&10=92&11=95&14=103&15=106&17=110&18=114&21=118&22=122&23=126&24=130&25=132&26=135&28=138&30=141&31=145&32=147&33=149&34=157&35=161&36=165&41=170&42=173&43=177&44=180&47=182&48=185&50=187&51=190&53=192&54=195&56=197&57=201&63=216&64=218&65=222&66=226&67=228&68=231&70=234&71=236&72=239&74=241&75=244&77=246&78=249'
