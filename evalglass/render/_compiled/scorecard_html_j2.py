# Compiled from templates/scorecard.html.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '0cb946fa6f91d97f08951a262264164ea8f635875a1f9307d632e4486bffa05d'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'scorecard.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    try:
        t_1 = environment.filters['capitalize']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'capitalize' found.")
    try:
        t_2 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_3 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_1_scorecard = resolve('scorecard')
    l_1_summary_rows = resolve('summary_rows')
    l_1_metric_cards = resolve('metric_cards')
    l_1_evaluated_at = resolve('evaluated_at')
    l_1_version = resolve('version')
    l_1_counts = l_1_details = l_1_gates = l_1_rest = missing
    pass
    t_4 = context.eval_ctx.save()
    context.eval_ctx.autoescape = True
    yield '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">\n<title>evalglass: '
    yield escape(environment.finalize(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'headline')))
    yield '</title>\n<style>\n  :root { --fail: #b42318; --blocked: #b54708; --pass: #067647; --warn: #eaaa08; --info: #475467; --ink: #101828; --muted: #475467; --line: #d0d5dd; }\n  * { box-sizing: border-box; }\n  body { margin: 0; padding: 24px; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }\n  main { max-width: 1100px; margin: 0 auto; }\n  code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.92em; overflow-wrap: anywhere; }\n  .verdict { color: #fff; border-radius: 8px; padding: 18px 22px; margin-bottom: 16px; }\n  .verdict h1 { margin: 0; font-size: 26px; line-height: 1.25; }\n  .verdict p { margin: 8px 0 0; }\n  .verdict-fail { background: var(--fail); }\n  .verdict-blocked { background: var(--blocked); }\n  .verdict-pass { background: var(--pass); }\n  .verdict-informational { background: repeating-linear-gradient(135deg, #475467 0 14px, #526077 14px 28px); }\n  .counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 8px; padding: 0; list-style: none; }\n  .counts li { border: 1px solid var(--line); border-radius: 999px; padding: 2px 12px; }\n  .meta { color: var(--muted); margin: 0 0 20px; }\n  h2 { font-size: 19px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }\n  .metric { border: 1px solid var(--line); border-left: 6px solid var(--info); border-radius: 6px; padding: 12px 16px; margin: 0 0 12px; display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 4px 20px; }\n  .metric header { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; }\n  .metric h3 { margin: 0; font-size: 16px; font-weight: 600; min-width: 0; }\n  .badge { flex-shrink: 0; white-space: nowrap; display: inline-block; min-width: 7.5em; text-align: center; font-weight: 700; font-size: 12px; letter-spacing: 0.04em; color: #fff; background: var(--info); border-radius: 4px; padding: 1px 8px; }\n  .s-fail { border-left-color: var(--fail); } .s-fail .badge { background: var(--fail); }\n  .s-blocked, .s-unsound { border-left-color: var(--blocked); } .s-blocked .badge, .s-unsound .badge { background: var(--blocked); }\n  .s-pass { border-left-color: var(--pass); } .s-pass .badge { background: var(--pass); }\n  .s-warn { border-left-color: var(--warn); } .s-warn .badge { background: var(--warn); color: var(--ink); }\n  dl.numbers { display: grid; grid-template-columns: max-content 1fr; gap: 0 12px; margin: 6px 0; }\n  dl.numbers dt { color: var(--muted); }\n  dl.numbers dd { margin: 0; font-variant-numeric: tabular-nums; }\n  .why { margin: 6px 0 0; }\n  .why ul { margin: 2px 0 0; padding-left: 20px; }\n  .label { font-weight: 600; }\n  .none { color: var(--muted); font-style: italic; }\n  pre.printed { margin: 2px 0 0; padding: 6px 8px; background: #f2f4f7; border-radius: 4px; font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }\n  svg.chart { display: block; margin-top: 4px; }\n  svg .axis, svg .tick { stroke: #667085; stroke-width: 1; }\n  svg text { font: 11px system-ui, sans-serif; fill: #344054; }\n  svg .interval { fill: #98a2b3; opacity: 0.55; }\n  svg .value { fill: var(--info); stroke: #fff; stroke-width: 1.5; }\n  svg .rule, svg .arrow { stroke: var(--ink); stroke-width: 2; }\n  svg .rule.proposed { stroke-dasharray: 3 3; }\n  svg .arrow-head { fill: var(--ink); }\n  .s-fail svg .value { fill: var(--fail); } .s-fail svg .interval { fill: var(--fail); opacity: 0.3; }\n  .s-blocked svg .value, .s-unsound svg .value { fill: var(--blocked); }\n  .s-blocked svg .interval, .s-unsound svg .interval { fill: var(--blocked); opacity: 0.3; }\n  .s-warn svg .value { fill: var(--warn); } .s-warn svg .interval { fill: var(--warn); opacity: 0.35; }\n  .s-pass svg .value { fill: var(--pass); } .s-pass svg .interval { fill: var(--pass); opacity: 0.3; }\n  .table-wrap { overflow-x: auto; margin: 0 0 8px; }\n  table.summary { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }\n  table.summary th, table.summary td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid var(--line); vertical-align: top; }\n  table.summary th { color: var(--muted); font-weight: 600; white-space: nowrap; }\n  .s-fail td .badge { background: var(--fail); } .s-blocked td .badge, .s-unsound td .badge { background: var(--blocked); }\n  .s-pass td .badge { background: var(--pass); } .s-warn td .badge { background: var(--warn); color: var(--ink); }\n  footer.meta { margin-top: 28px; border-top: 1px solid var(--line); padding-top: 8px; }\n  @media (max-width: 760px) { .metric { grid-template-columns: 1fr; } body { padding: 12px; } svg.chart { max-width: 100%; height: auto; } }\n  @media (max-width: 600px) {\n    table.summary thead { display: none; }\n    table.summary, table.summary tbody, table.summary tr, table.summary td { display: block; }\n    table.summary tr { padding: 6px 0; border-bottom: 1px solid var(--line); }\n    table.summary td { border: 0; padding: 1px 0; }\n    table.summary td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); }\n  }\n</style>\n</head>\n<body>\n<main>\n<header class="verdict verdict-'
    yield escape(environment.finalize(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'verdict')))
    yield '">\n  <h1>'
    yield escape(environment.finalize(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'headline')))
    yield '</h1>\n  <p>Model under evaluation: '
    if (not t_3(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'model'))):
        pass
        yield '<code>'
        yield escape(environment.finalize(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'model')))
        yield '</code>'
    else:
        pass
        yield 'not named by the outputs'
    yield '</p>\n</header>\n'
    l_1_counts = environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'counts')
    yield '<ul class="counts">\n  <li>'
    yield escape(environment.finalize(environment.getattr((undefined(name='counts') if l_1_counts is missing else l_1_counts), 'passed')))
    yield ' passed</li>\n  <li>'
    yield escape(environment.finalize(environment.getattr((undefined(name='counts') if l_1_counts is missing else l_1_counts), 'failed')))
    yield ' failed</li>\n  <li>'
    yield escape(environment.finalize(environment.getattr((undefined(name='counts') if l_1_counts is missing else l_1_counts), 'blocked')))
    yield ' blocked or unsound</li>\n  <li>'
    yield escape(environment.finalize(environment.getattr((undefined(name='counts') if l_1_counts is missing else l_1_counts), 'informational')))
    yield ' informational</li>\n</ul>\n'
    if (environment.getattr(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'policy'), 'source') != 'default'):
        pass
        yield '<p class="meta">Success policy (<code>'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'policy'), 'source')))
        yield '</code>): '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'policy'), 'text')))
        yield '.</p>\n'
    l_1_details = environment.getattr(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'policy'), 'details')
    if (undefined(name='details') if l_1_details is missing else l_1_details):
        pass
        yield '<ul class="policy">\n'
        for l_2_line in (undefined(name='details') if l_1_details is missing else l_1_details):
            _loop_vars = {}
            pass
            yield '  <li>'
            yield escape(environment.finalize(l_2_line))
            yield '</li>\n'
        l_2_line = missing
        yield '</ul>\n'
    yield '<p class="meta">Exit code '
    yield escape(environment.finalize(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'exit_code')))
    yield '. Sources: '
    l_2_loop = missing
    t_5 = 1
    for l_2_source, l_2_loop in LoopContext(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'sources'), undefined):
        _loop_vars = {}
        pass
        yield '<code>'
        yield escape(environment.finalize(l_2_source))
        yield '</code>'
        yield escape(environment.finalize((', ' if (not environment.getattr(l_2_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 104 in 'scorecard.html.j2' evaluated to false and no else section was defined."))))
        t_5 = 0
    l_2_loop = l_2_source = missing
    if t_5:
        pass
        yield 'none'
    yield '.</p>\n'
    if environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'comparison'):
        pass
        yield '<p class="meta">'
        yield escape(environment.finalize(t_1(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'comparison'))))
        yield '.</p>\n'
    yield '\n<h2>Summary</h2>\n'
    if (undefined(name='summary_rows') if l_1_summary_rows is missing else l_1_summary_rows):
        pass
        yield '<div class="table-wrap">\n  <table class="summary">\n    <thead><tr><th>Status</th><th>Metric</th><th>Value</th><th>Bound</th><th>Threshold</th><th>Change</th></tr></thead>\n    <tbody>\n'
        yield escape(environment.finalize((undefined(name='summary_rows') if l_1_summary_rows is missing else l_1_summary_rows)))
        yield '    </tbody>\n  </table>\n</div>\n'
    else:
        pass
        yield '<p class="none">No metric was measured or recorded.</p>\n'
    yield '\n'
    l_1_gates = environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'gates')
    yield '<h2>Gates that decided ('
    yield escape(environment.finalize(t_2((undefined(name='gates') if l_1_gates is missing else l_1_gates))))
    yield ')</h2>\n'
    if (undefined(name='gates') if l_1_gates is missing else l_1_gates):
        pass
        yield escape(environment.finalize(context.call((undefined(name='metric_cards') if l_1_metric_cards is missing else l_1_metric_cards), (undefined(name='gates') if l_1_gates is missing else l_1_gates))))
        yield '\n'
    else:
        pass
        yield '<p class="none">No metric could gate: nothing in this run was enforced.</p>\n'
    yield '\n'
    l_1_rest = environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'others')
    yield '<h2>Not affecting the verdict ('
    yield escape(environment.finalize(t_2((undefined(name='rest') if l_1_rest is missing else l_1_rest))))
    yield ')</h2>\n'
    if (undefined(name='rest') if l_1_rest is missing else l_1_rest):
        pass
        yield escape(environment.finalize(context.call((undefined(name='metric_cards') if l_1_metric_cards is missing else l_1_metric_cards), (undefined(name='rest') if l_1_rest is missing else l_1_rest))))
        yield '\n'
    else:
        pass
        yield '<p class="none">Every metric affected the verdict.</p>\n'
    yield '<footer class="meta">Evaluated at '
    yield escape(environment.finalize((undefined(name='evaluated_at') if l_1_evaluated_at is missing else l_1_evaluated_at)))
    yield ' · evalglass '
    yield escape(environment.finalize((undefined(name='version') if l_1_version is missing else l_1_version)))
    if (not t_3(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'records_folder'))):
        pass
        yield ' · host records <code>'
        yield escape(environment.finalize(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'records_folder')))
        yield '</code>'
    if environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'records_commit'):
        pass
        yield ' at commit <code>'
        yield escape(environment.finalize(environment.getattr((undefined(name='scorecard') if l_1_scorecard is missing else l_1_scorecard), 'records_commit')))
        yield '</code>'
    yield '</footer>\n</main>\n</body>\n</html>\n'
    context.eval_ctx.revert(t_4)
    l_1_scorecard = l_1_counts = l_1_details = l_1_summary_rows = l_1_gates = l_1_metric_cards = l_1_rest = l_1_evaluated_at = l_1_version = missing

blocks = {}
debug_info = '12=39&82=41&83=43&84=45&86=54&88=56&89=58&90=60&91=62&93=64&94=67&96=71&97=72&99=75&100=79&104=84&105=101&106=104&110=107&115=110&122=116&123=118&124=120&125=122&130=128&131=130&132=132&133=134&137=140'
