# Compiled from templates/scorecard.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '8a7fa64fc073955164296a1ff15feaefaa15e243764e060782094478105c5333'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'scorecard.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_marker = resolve('marker')
    l_0_scorecard = resolve('scorecard')
    l_0_cut = resolve('cut')
    l_0_limit = resolve('limit')
    l_0_rows = resolve('rows')
    l_0_details = resolve('details')
    l_0_other_row = missing
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
        t_4 = environment.filters['plural']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'plural' found.")
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    included_template = environment.get_template('scorecard_rows.md.j2', 'scorecard.md.j2')._get_default_module(context)
    l_0_other_row = getattr(included_template, 'other_row', missing)
    if l_0_other_row is missing:
        l_0_other_row = undefined(f"the template {included_template.__name__!r} (imported on line 4 in 'scorecard.md.j2') does not export the requested name 'other_row'", name='other_row')
    context.vars['other_row'] = l_0_other_row
    context.exported_vars.discard('other_row')
    yield str(environment.finalize((undefined(name='marker') if l_0_marker is missing else l_0_marker)))
    yield '\n**'
    yield str(environment.finalize(t_3(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'headline'))))
    yield '**\n\n'
    if (not t_5(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'model'))):
        pass
        yield 'Model under evaluation: '
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'model'))))
        yield '\n'
    if (not t_5(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_folder'))):
        pass
        if (not t_5(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'model'))):
            pass
            yield '\n'
        yield 'Records: '
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_folder'))))
        if environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_commit'):
            pass
            yield ' as committed at '
            yield str(environment.finalize(t_1(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_ref'))))
            yield ', commit '
            yield str(environment.finalize(t_1(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'records_commit'))))
        yield '\n'
    if (environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'source') != 'default'):
        pass
        yield '\nSuccess policy ('
        yield str(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'source'))))
        yield '): '
        yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'text'))))
        yield '\n'
    l_1_loop = missing
    for l_1_line, l_1_loop in LoopContext(environment.getattr(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'policy'), 'details'), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield '\n'
        yield '- '
        yield str(environment.finalize(t_3(l_1_line)))
        yield '\n'
    l_1_loop = l_1_line = missing
    if (undefined(name='cut') if l_0_cut is missing else l_0_cut):
        pass
        yield "\n_Shortened to fit GitHub's limit of "
        yield str(environment.finalize(context.call(environment.getattr('{:,}', 'format'), (undefined(name='limit') if l_0_limit is missing else l_0_limit))))
        yield ' characters for a comment: '
        yield str(environment.finalize(environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'listed')))
        yield '. The JSON and HTML scorecards (`--format json`, `--format html`) have every metric._\n'
    if (undefined(name='rows') if l_0_rows is missing else l_0_rows):
        pass
        yield '\n| Result | Metric | Value | Interval | n | Threshold |\n|---|---|---|---|---|---|\n'
        for l_1_row in (undefined(name='rows') if l_0_rows is missing else l_0_rows):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_row))
            yield '\n'
        l_1_row = missing
        yield '\n**Why, gate by gate**\n\n'
        for l_1_detail in (undefined(name='details') if l_0_details is missing else l_0_details):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_detail))
            yield '\n'
        l_1_detail = missing
    elif ((not (undefined(name='cut') if l_0_cut is missing else l_0_cut)) or (not environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'unlisted'))):
        pass
        yield '\nNo metric could gate: nothing in this run was enforced.\n'
    if environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'comparison'):
        pass
        yield '\n**Change against the earlier scorecard** ('
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'comparison'))))
        yield ')'
        yield str(environment.finalize((':' if (not (undefined(name='cut') if l_0_cut is missing else l_0_cut)) else ': shortened out, see the JSON scorecard.')))
        yield '\n'
        if (not (undefined(name='cut') if l_0_cut is missing else l_0_cut)):
            pass
            yield '\n| Metric | Change |\n|---|---|\n'
            def t_6(fiter):
                for l_1_m in fiter:
                    if environment.getattr(l_1_m, 'change'):
                        yield l_1_m
            for l_1_m in t_6((environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'gates') + environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others'))):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.finalize(t_1(environment.getattr(l_1_m, 'id'))))
                yield ' | '
                yield str(environment.finalize(t_3(environment.getattr(l_1_m, 'change'))))
                yield ' |\n'
            l_1_m = missing
    if ((undefined(name='cut') if l_0_cut is missing else l_0_cut) and environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'unlisted')):
        pass
        yield '\n**'
        yield str(environment.finalize(t_4(environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'unlisted_total'), 'more gate')))
        yield ' not listed here:** '
        l_1_loop = missing
        for (l_1_status, l_1_count), l_1_loop in LoopContext(environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'unlisted'), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_count))
            yield ' '
            yield str(environment.finalize(l_1_status))
            yield str(environment.finalize((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 63 in 'scorecard.md.j2' evaluated to false and no else section was defined."))))
        l_1_loop = l_1_status = l_1_count = missing
        yield '.\n'
    if environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others'):
        pass
        yield '\n<details><summary>'
        yield str(environment.finalize(t_4(t_2(environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others')), 'metric')))
        yield ' not affecting the verdict</summary>\n\n'
        if (not (undefined(name='cut') if l_0_cut is missing else l_0_cut)):
            pass
            yield '| Metric | Value | n | Why it does not gate | Would block once promoted |\n|---|---|---|---|---|\n'
            for l_1_m in environment.getattr((undefined(name='scorecard') if l_0_scorecard is missing else l_0_scorecard), 'others'):
                _loop_vars = {}
                pass
                yield str(environment.finalize(context.call((undefined(name='other_row') if l_0_other_row is missing else l_0_other_row), l_1_m, _loop_vars=_loop_vars)))
                yield '\n'
            l_1_m = missing
        else:
            pass
            yield '| Outcome | Why it does not gate | Metrics |\n|---|---|---|\n'
            for (l_1_outcome, l_1_code, l_1_n) in environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'reasons'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.finalize(l_1_outcome))
                yield ' | '
                yield str(environment.finalize(t_1(l_1_code)))
                yield ' | '
                yield str(environment.finalize(l_1_n))
                yield ' |\n'
            l_1_outcome = l_1_code = l_1_n = missing
            if environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'notes'):
                pass
                yield '\n| Would block once promoted | Metrics |\n|---|---|\n'
                for (l_1_code, l_1_n) in environment.getattr((undefined(name='cut') if l_0_cut is missing else l_0_cut), 'notes'):
                    _loop_vars = {}
                    pass
                    yield '| '
                    yield str(environment.finalize(t_1(l_1_code)))
                    yield ' | '
                    yield str(environment.finalize(l_1_n))
                    yield ' |\n'
                l_1_code = l_1_n = missing
        yield '\n</details>\n'

blocks = {}
debug_info = '4=48&5=54&6=56&8=58&9=61&11=63&12=65&15=69&18=77&20=80&22=85&23=88&26=92&28=95&30=98&32=102&36=105&37=108&42=112&43=115&45=118&49=121&51=124&52=128&56=131&57=139&61=144&63=147&65=159&67=162&69=164&72=167&73=170&78=176&79=180&81=187&85=190&86=194'
