# Compiled from templates/scorecard.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = 'bb2afd44f002e4bbabd8569ee0cad12573cf1dc30e0884f60bf2850802b6e3e1'
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
        l_0_other_row = undefined(f"the template {included_template.__name__!r} (imported on line 3 in 'scorecard.md.j2') does not export the requested name 'other_row'", name='other_row')
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
        yield '\n| Result | Metric | Value | Interval | n | Threshold | Evidence or reasons |\n|---|---|---|---|---|---|---|\n'
        for l_1_row in (undefined(name='rows') if l_0_rows is missing else l_0_rows):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_row))
            yield '\n'
        l_1_row = missing
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
            yield str(environment.finalize((', ' if (not environment.getattr(l_1_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 56 in 'scorecard.md.j2' evaluated to false and no else section was defined."))))
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
debug_info = '3=47&4=53&5=55&7=57&8=60&10=62&11=64&14=68&17=76&19=79&21=84&22=87&25=91&27=94&29=97&31=101&35=104&36=107&38=110&42=113&44=116&45=120&49=123&50=131&54=136&56=139&58=151&60=154&62=156&65=159&66=162&71=168&72=172&74=179&78=182&79=186'
