# Compiled from templates/explain.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '948d9dd37112c219aa71045b283ff80e49fae2c8ce8c1315d08977b0a8606ef4'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'explain.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_x = resolve('x')
    l_0_outcome_text = resolve('outcome_text')
    l_0_check_text = resolve('check_text')
    l_0_value_text = resolve('value_text')
    l_0_n_text = resolve('n_text')
    l_0_interval_text = resolve('interval_text')
    l_0_method_text = resolve('method_text')
    l_0_threshold_text = resolve('threshold_text')
    l_0_gate_text = resolve('gate_text')
    l_0_needed_text = resolve('needed_text')
    l_0_card = l_0_plan = missing
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_3 = environment.tests['defined']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No test named 'defined' found.")
    try:
        t_4 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_card = environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'card')
    context.vars['card'] = l_0_card
    context.exported_vars.add('card')
    l_0_plan = environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'checklist')
    context.vars['plan'] = l_0_plan
    context.exported_vars.add('plan')
    yield str(environment.finalize(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'id')))
    yield ': '
    yield str(environment.finalize(context.call((undefined(name='outcome_text') if l_0_outcome_text is missing else l_0_outcome_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
    yield '\n'
    if t_4(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record')):
        pass
        yield '  record: none in metrics.yaml\n'
    elif environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'is_check'):
        pass
        yield '  record: status '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'status'), 'value')))
        yield '\n'
    else:
        pass
        yield '  record: status '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'status'), 'value')))
        yield ', dataset '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'dataset')))
        if (not t_4(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'judge'))):
            pass
            yield ', judge '
            yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'judge')))
        yield ', decision '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'decision'), 'value')))
        yield ', min_samples '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'min_samples')))
        yield '\n'
    if environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'is_check'):
        pass
        yield '  check: '
        yield str(environment.finalize(context.call((undefined(name='check_text') if l_0_check_text is missing else l_0_check_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'check'))))
        yield '\n'
    yield '\nValue\n'
    if environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'is_check'):
        pass
        yield '  not run: explain starts no process (`evalglass run` runs checks)\n'
    elif t_4(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'measurement')):
        pass
        yield '  not measured'
        yield str(environment.finalize((' by the outputs given' if environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given') else ' (no eval outputs given)')))
        yield '\n'
    else:
        pass
        yield '  value '
        yield str(environment.finalize(context.call((undefined(name='value_text') if l_0_value_text is missing else l_0_value_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield '  n '
        yield str(environment.finalize(context.call((undefined(name='n_text') if l_0_n_text is missing else l_0_n_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield '  interval '
        yield str(environment.finalize(context.call((undefined(name='interval_text') if l_0_interval_text is missing else l_0_interval_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield ' '
        yield str(environment.finalize(context.call((undefined(name='method_text') if l_0_method_text is missing else l_0_method_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield '\n'
    yield '  threshold '
    yield str(environment.finalize(context.call((undefined(name='threshold_text') if l_0_threshold_text is missing else l_0_threshold_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
    yield '\n'
    if environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'validity'), 'valid'):
        pass
        yield '  validity: sound enough to compare\n'
    elif environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given'):
        pass
        yield '  validity: not sound enough to compare\n'
    if (environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given') and (environment.getattr(environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'outcome'), 'value') == 'can_gate')):
        pass
        yield '  gate: '
        yield str(environment.finalize(context.call((undefined(name='gate_text') if l_0_gate_text is missing else l_0_gate_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield '\n'
    if (environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given') and (not environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'validity'), 'valid'))):
        pass
        yield '\nWhy the number is not sound\n'
        for l_1_reason in environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'validity'), 'reasons'):
            l_1_plain = resolve('plain')
            _loop_vars = {}
            pass
            yield '  '
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
            yield ': '
            yield str(environment.finalize(environment.getattr(l_1_reason, 'message')))
            yield '\n      '
            yield str(environment.finalize(context.call((undefined(name='plain') if l_1_plain is missing else l_1_plain), environment.getattr(l_1_reason, 'code'), _loop_vars=_loop_vars)))
            yield '\n'
        l_1_reason = l_1_plain = missing
    if environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'reasons'):
        pass
        yield '\nWhy it '
        yield str(environment.finalize(('is blocked' if (environment.getattr(environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'outcome'), 'value') == 'blocked') else 'does not gate')))
        yield '\n'
        for l_1_reason in environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'reasons'):
            l_1_plain = resolve('plain')
            _loop_vars = {}
            pass
            yield '  '
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
            yield ': '
            yield str(environment.finalize(environment.getattr(l_1_reason, 'message')))
            yield '\n      '
            yield str(environment.finalize(context.call((undefined(name='plain') if l_1_plain is missing else l_1_plain), environment.getattr(l_1_reason, 'code'), _loop_vars=_loop_vars)))
            yield '\n'
        l_1_reason = l_1_plain = missing
    if environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'notes'):
        pass
        yield '\nWould block once promoted\n'
        for l_1_reason in environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'notes'):
            l_1_plain = resolve('plain')
            _loop_vars = {}
            pass
            yield '  '
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
            yield ': '
            yield str(environment.finalize(environment.getattr(l_1_reason, 'message')))
            yield '\n      '
            yield str(environment.finalize(context.call((undefined(name='plain') if l_1_plain is missing else l_1_plain), environment.getattr(l_1_reason, 'code'), _loop_vars=_loop_vars)))
            yield '\n'
        l_1_reason = l_1_plain = missing
    yield '\nSuccess policy ('
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'policy'), 'source')))
    yield ')\n  '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'policy'), 'text')))
    yield '\n\nTo make it gate\n'
    if ((not environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits')) and (not environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside'))):
        pass
        if context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), (undefined(name='card') if l_0_card is missing else l_0_card)):
            pass
            yield '  it can gate already; it '
            yield str(environment.finalize(context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
            yield '\n'
        else:
            pass
            yield '  nothing: it can gate already\n'
    else:
        pass
        if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits'):
            pass
            yield '  Edit by hand, in this order, in a reviewed change (evalglass never makes these edits):\n'
            l_1_loop = missing
            for l_1_edit, l_1_loop in LoopContext(environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits'), undefined):
                _loop_vars = {}
                pass
                yield '  '
                yield str(environment.finalize(environment.getattr(l_1_loop, 'index')))
                yield '. '
                yield str(environment.finalize(environment.getattr(l_1_edit, 'file')))
                yield ': '
                yield str(environment.finalize(environment.getattr(l_1_edit, 'key')))
                yield ': '
                yield str(environment.finalize(environment.getattr(l_1_edit, 'text')))
                yield str(environment.finalize(('  (new record)' if ((environment.getattr(environment.getattr(l_1_edit, 'action'), 'value') == 'add') and (not ((t_3(environment.getattr(l_1_loop, 'previtem')) and (environment.getattr(environment.getattr(l_1_loop, 'previtem'), 'kind') == environment.getattr(l_1_edit, 'kind'))) and (environment.getattr(environment.getattr(l_1_loop, 'previtem'), 'record') == environment.getattr(l_1_edit, 'record'))))) else '')))
                yield '\n       asserts: '
                yield str(environment.finalize(environment.getattr(l_1_edit, 'asserts')))
                yield '\n'
            l_1_loop = l_1_edit = missing
        if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside'):
            pass
            yield '  The run itself must also show (no records edit can):\n'
            for l_1_reason in environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside'):
                _loop_vars = {}
                pass
                yield '  - '
                yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
                yield ': '
                yield str(environment.finalize(environment.getattr(l_1_reason, 'message')))
                yield '\n'
            l_1_reason = missing
    if (environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits') or environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside')):
        pass
        yield '\nHypothetical: if every edit above were made (in memory only; nothing was written)\n'
        if t_4(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical')):
            pass
            yield '  give eval outputs to see what the gate would decide today\n'
        else:
            pass
            yield '  authority: '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'outcome'), 'value')))
            if environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'reasons'):
                pass
                yield ' ('
                yield str(environment.finalize(t_1(context.eval_ctx, t_2(context, environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'reasons'), attribute='code.value'), ', ')))
                yield ')'
            yield '\n'
            if (environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'outcome'), 'value') != 'can_gate'):
                pass
                yield '  gate: not enforced\n'
            elif environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical_gate_known'):
                pass
                yield '  gate: '
                yield str(environment.finalize(context.call((undefined(name='gate_text') if l_0_gate_text is missing else l_0_gate_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'))))
                yield '\n'
                if context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical')):
                    pass
                    yield '  '
                    yield str(environment.finalize(context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'))))
                    yield '\n'
            else:
                pass
                yield '  gate: cannot say until the values in <angle brackets> are chosen\n'

blocks = {}
debug_info = '2=46&3=49&4=52&5=56&7=59&8=62&10=67&12=79&13=82&17=85&19=88&20=91&22=96&24=105&25=107&27=110&30=113&31=116&33=118&36=121&37=126&38=130&41=133&43=136&44=138&45=143&46=147&49=150&52=153&53=158&54=162&58=166&59=168&62=170&63=172&64=175&69=182&71=186&72=190&73=199&76=202&78=205&79=209&83=214&86=217&89=223&91=230&93=233&94=236&95=238&96=241'
