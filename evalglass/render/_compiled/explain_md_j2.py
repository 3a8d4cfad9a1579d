# Compiled from templates/explain.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '69506236df30e7e760d4af237a3e8512a261e4e4cbd26e46b64922784269cc94'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'explain.md.j2'

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
        t_1 = environment.filters['code']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'code' found.")
    try:
        t_2 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_3 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_4 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_card = environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'card')
    context.vars['card'] = l_0_card
    context.exported_vars.add('card')
    l_0_plan = environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'checklist')
    context.vars['plan'] = l_0_plan
    context.exported_vars.add('plan')
    yield '**'
    yield str(environment.finalize(t_1(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'id'))))
    yield ': '
    yield str(environment.finalize(t_4(context.call((undefined(name='outcome_text') if l_0_outcome_text is missing else l_0_outcome_text), (undefined(name='card') if l_0_card is missing else l_0_card)))))
    yield '**\n\n'
    if t_5(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record')):
        pass
        yield '- record: none in `metrics.yaml`\n'
    elif environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'is_check'):
        pass
        yield '- record: status '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'status'), 'value')))
        yield '\n'
    else:
        pass
        yield '- record: status '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'status'), 'value')))
        yield ', dataset '
        yield str(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'dataset'))))
        if (not t_5(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'judge'))):
            pass
            yield ', judge '
            yield str(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'judge'))))
        yield ', decision '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'decision'), 'value')))
        yield ', min_samples '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'record'), 'min_samples')))
        yield '\n'
    if environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'is_check'):
        pass
        yield '- check: '
        yield str(environment.finalize(t_4(context.call((undefined(name='check_text') if l_0_check_text is missing else l_0_check_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'check')))))
        yield '\n- value: not run (`evalglass run` runs checks)\n'
    elif t_5(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'measurement')):
        pass
        yield '- value: not measured'
        yield str(environment.finalize((' by the outputs given' if environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given') else ' (no eval outputs given)')))
        yield '\n'
    else:
        pass
        yield '- value '
        yield str(environment.finalize(context.call((undefined(name='value_text') if l_0_value_text is missing else l_0_value_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield ', n '
        yield str(environment.finalize(context.call((undefined(name='n_text') if l_0_n_text is missing else l_0_n_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield ', interval '
        yield str(environment.finalize(context.call((undefined(name='interval_text') if l_0_interval_text is missing else l_0_interval_text), (undefined(name='card') if l_0_card is missing else l_0_card))))
        yield ' '
        yield str(environment.finalize(t_4(context.call((undefined(name='method_text') if l_0_method_text is missing else l_0_method_text), (undefined(name='card') if l_0_card is missing else l_0_card)))))
        yield '\n'
    yield '- threshold: '
    yield str(environment.finalize(t_4(context.call((undefined(name='threshold_text') if l_0_threshold_text is missing else l_0_threshold_text), (undefined(name='card') if l_0_card is missing else l_0_card)))))
    yield '\n'
    if environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'validity'), 'valid'):
        pass
        yield '- validity: sound enough to compare\n'
    elif environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given'):
        pass
        yield '- validity: not sound enough to compare\n'
    if (environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given') and (environment.getattr(environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'outcome'), 'value') == 'can_gate')):
        pass
        yield '- gate: '
        yield str(environment.finalize(t_4(context.call((undefined(name='gate_text') if l_0_gate_text is missing else l_0_gate_text), (undefined(name='card') if l_0_card is missing else l_0_card)))))
        yield '\n'
    if (environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'outputs_given') and (not environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'validity'), 'valid'))):
        pass
        yield '\n### Why the number is not sound\n\n'
        for l_1_reason in environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'validity'), 'reasons'):
            l_1_plain = resolve('plain')
            _loop_vars = {}
            pass
            yield '- `'
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
            yield '`: '
            yield str(environment.finalize(t_4(environment.getattr(l_1_reason, 'message'))))
            yield '. '
            yield str(environment.finalize(context.call((undefined(name='plain') if l_1_plain is missing else l_1_plain), environment.getattr(l_1_reason, 'code'), _loop_vars=_loop_vars)))
            yield '\n'
        l_1_reason = l_1_plain = missing
    if environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'reasons'):
        pass
        yield '\n### Why it '
        yield str(environment.finalize(('is blocked' if (environment.getattr(environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'outcome'), 'value') == 'blocked') else 'does not gate')))
        yield '\n\n'
        for l_1_reason in environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'reasons'):
            l_1_plain = resolve('plain')
            _loop_vars = {}
            pass
            yield '- `'
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
            yield '`: '
            yield str(environment.finalize(t_4(environment.getattr(l_1_reason, 'message'))))
            yield '. '
            yield str(environment.finalize(context.call((undefined(name='plain') if l_1_plain is missing else l_1_plain), environment.getattr(l_1_reason, 'code'), _loop_vars=_loop_vars)))
            yield '\n'
        l_1_reason = l_1_plain = missing
    if environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'notes'):
        pass
        yield '\n### Would block once promoted\n\n'
        for l_1_reason in environment.getattr(environment.getattr((undefined(name='card') if l_0_card is missing else l_0_card), 'authority'), 'notes'):
            l_1_plain = resolve('plain')
            _loop_vars = {}
            pass
            yield '- `'
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
            yield '`: '
            yield str(environment.finalize(t_4(environment.getattr(l_1_reason, 'message'))))
            yield '. '
            yield str(environment.finalize(context.call((undefined(name='plain') if l_1_plain is missing else l_1_plain), environment.getattr(l_1_reason, 'code'), _loop_vars=_loop_vars)))
            yield '\n'
        l_1_reason = l_1_plain = missing
    yield '\n### Success policy ('
    yield str(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'policy'), 'source'))))
    yield ')\n\n'
    yield str(environment.finalize(t_4(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'policy'), 'text'))))
    yield '\n\n### To make it gate\n\n'
    if ((not environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits')) and (not environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside'))):
        pass
        if context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), (undefined(name='card') if l_0_card is missing else l_0_card)):
            pass
            yield 'It can gate already; it '
            yield str(environment.finalize(t_4(context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), (undefined(name='card') if l_0_card is missing else l_0_card)))))
            yield '.\n'
        else:
            pass
            yield 'Nothing: it can gate already.\n'
    else:
        pass
        if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits'):
            pass
            yield 'Edit by hand, in this order, in a reviewed change (evalglass never makes these edits):\n\n| # | File | Key | Value | What the edit asserts |\n|---|---|---|---|---|\n'
            l_1_loop = missing
            for l_1_edit, l_1_loop in LoopContext(environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits'), undefined):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_1_loop, 'index')))
                yield ' | `'
                yield str(environment.finalize(environment.getattr(l_1_edit, 'file')))
                yield '` | '
                yield str(environment.finalize(t_1(environment.getattr(l_1_edit, 'key'))))
                yield ' | '
                yield str(environment.finalize(t_1(environment.getattr(l_1_edit, 'text'))))
                yield ' | '
                yield str(environment.finalize(t_4(environment.getattr(l_1_edit, 'asserts'))))
                yield ' |\n'
            l_1_loop = l_1_edit = missing
        if environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside'):
            pass
            yield '\nThe run itself must also show (no records edit can):\n\n'
            for l_1_reason in environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside'):
                _loop_vars = {}
                pass
                yield '- `'
                yield str(environment.finalize(environment.getattr(environment.getattr(l_1_reason, 'code'), 'value')))
                yield '`: '
                yield str(environment.finalize(t_4(environment.getattr(l_1_reason, 'message'))))
                yield '\n'
            l_1_reason = missing
    if (environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'edits') or environment.getattr((undefined(name='plan') if l_0_plan is missing else l_0_plan), 'outside')):
        pass
        yield '\n### Hypothetical: if every edit above were made\n\n_Computed in memory only; nothing was written._\n\n'
        if t_5(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical')):
            pass
            yield 'Give eval outputs to see what the gate would decide today.\n'
        else:
            pass
            yield '- authority: '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'outcome'), 'value')))
            if environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'reasons'):
                pass
                yield ' ('
                yield str(environment.finalize(t_2(context.eval_ctx, t_3(context, environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'reasons'), attribute='code.value'), ', ')))
                yield ')'
            yield '\n'
            if (environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical'), 'authority'), 'outcome'), 'value') != 'can_gate'):
                pass
                yield '- gate: not enforced\n'
            elif environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical_gate_known'):
                pass
                yield '- gate: '
                yield str(environment.finalize(t_4(context.call((undefined(name='gate_text') if l_0_gate_text is missing else l_0_gate_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical')))))
                yield '\n'
                if context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical')):
                    pass
                    yield '- '
                    yield str(environment.finalize(t_4(context.call((undefined(name='needed_text') if l_0_needed_text is missing else l_0_needed_text), environment.getattr((undefined(name='x') if l_0_x is missing else l_0_x), 'hypothetical')))))
                    yield '\n'
            else:
                pass
                yield '- gate: cannot say until the values in angle brackets are chosen\n'

blocks = {}
debug_info = '2=52&3=55&4=59&6=63&8=66&9=69&11=74&13=86&14=89&16=91&17=94&19=99&21=108&22=110&24=113&27=116&28=119&30=121&34=124&35=129&38=136&40=139&42=141&43=146&46=153&50=156&51=161&55=169&57=171&61=173&62=175&63=178&68=185&73=189&74=193&77=204&81=207&82=211&86=216&92=219&95=225&97=232&99=235&100=238&101=240&102=243'
