# Compiled from templates/trend.html.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '778c57c760e90ca0d782bcdf1f07e8d836b921ed999627609363f2474a9aafd4'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'trend.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_2 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    pass
    l_1_v = resolve('v')
    l_1_trend = resolve('trend')
    pass
    t_3 = context.eval_ctx.save()
    context.eval_ctx.autoescape = True
    yield '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">\n<title>'
    yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'heading'), (undefined(name='trend') if l_1_trend is missing else l_1_trend))))
    yield '</title>\n<style>\n  :root { --fail: #b42318; --blocked: #b54708; --pass: #067647; --warn: #eaaa08; --info: #475467; --ink: #101828; --muted: #475467; --line: #d0d5dd; }\n  * { box-sizing: border-box; }\n  body { margin: 0; padding: 24px; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; }\n  main { max-width: 1100px; margin: 0 auto; }\n  code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.92em; overflow-wrap: anywhere; }\n  .summary { border-radius: 8px; padding: 18px 22px; margin-bottom: 12px; background: #f2f4f7; border: 1px solid var(--line); }\n  .summary h1 { margin: 0; font-size: 24px; line-height: 1.25; }\n  .summary p { margin: 8px 0 0; color: var(--muted); }\n  .legend { display: flex; flex-wrap: wrap; gap: 6px 20px; margin: 0 0 18px; padding: 0; list-style: none; color: var(--muted); font-size: 13px; }\n  .legend svg { vertical-align: middle; margin-right: 4px; }\n  h2 { font-size: 19px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }\n  .metric { border: 1px solid var(--line); border-left: 6px solid var(--info); border-radius: 6px; padding: 12px 16px; margin: 0 0 14px; display: grid; grid-template-columns: minmax(0, 1fr) 720px; gap: 4px 20px; }\n  .metric header { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; }\n  .metric h3 { margin: 0; font-size: 16px; font-weight: 600; min-width: 0; }\n  .badge { flex-shrink: 0; white-space: nowrap; display: inline-block; min-width: 7.5em; text-align: center; font-weight: 700; font-size: 12px; letter-spacing: 0.04em; color: #fff; background: var(--info); border-radius: 4px; padding: 1px 8px; }\n  .s-fail { border-left-color: var(--fail); } .s-fail .badge { background: var(--fail); }\n  .s-blocked, .s-unsound { border-left-color: var(--blocked); } .s-blocked .badge, .s-unsound .badge { background: var(--blocked); }\n  .s-pass { border-left-color: var(--pass); } .s-pass .badge { background: var(--pass); }\n  .s-warn { border-left-color: var(--warn); } .s-warn .badge { background: var(--warn); color: var(--ink); }\n  dl.numbers { display: grid; grid-template-columns: max-content 1fr; gap: 0 12px; margin: 6px 0; align-content: start; }\n  dl.numbers dt { color: var(--muted); }\n  dl.numbers dd { margin: 0; font-variant-numeric: tabular-nums; }\n  .changes { grid-column: 1 / -1; margin: 4px 0 0; }\n  .changes ul { margin: 2px 0 6px; padding-left: 20px; }\n  .label { font-weight: 600; }\n  .none { color: var(--muted); font-style: italic; }\n  table.runs { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }\n  table.runs th, table.runs td { text-align: left; padding: 3px 10px; border-bottom: 1px solid var(--line); }\n  svg.trend { display: block; max-width: 100%; height: auto; overflow: visible; }\n  svg text { font: 11px system-ui, sans-serif; fill: #344054; }\n  svg .axis, svg .tick { stroke: #667085; stroke-width: 1; }\n  svg .grid { stroke: #eaecf0; stroke-width: 1; }\n  svg .interval { fill: #98a2b3; opacity: 0.45; }\n  svg .value { fill: none; stroke: var(--info); stroke-width: 2; stroke-linejoin: round; }\n  svg .dot { fill: var(--info); stroke: #fff; stroke-width: 1.5; }\n  svg .dot.s-pass { fill: var(--pass); } svg .dot.s-fail { fill: var(--fail); } svg .dot.s-warn { fill: var(--warn); }\n  svg .dot.s-blocked, svg .dot.s-unsound { fill: var(--blocked); }\n  svg .rule { stroke: var(--ink); stroke-width: 2; }\n  svg .rule.proposed { stroke-dasharray: 3 3; }\n  svg .rule-label { font-weight: 600; fill: var(--ink); }\n  svg .change { stroke-width: 1.5; stroke-dasharray: 5 3; }\n  svg .to-can_gate { stroke: var(--pass); fill: var(--pass); } svg .to-blocked { stroke: var(--blocked); fill: var(--blocked); } svg .to-informational { stroke: var(--info); fill: var(--info); }\n  svg text.change-label { stroke: none; font-weight: 600; }\n  svg .when { fill: var(--muted); }\n  .strip { display: flex; flex-wrap: wrap; gap: 4px; margin: 0 0 14px; padding: 0; list-style: none; }\n  .strip li { min-width: 2.6em; text-align: center; border-radius: 4px; padding: 2px 6px; font-size: 12px; font-weight: 700; color: #fff; background: var(--info); }\n  .strip .v-fail { background: var(--fail); } .strip .v-blocked { background: var(--blocked); } .strip .v-pass { background: var(--pass); }\n  .strip .v-informational { background: repeating-linear-gradient(135deg, #475467 0 6px, #526077 6px 12px); }\n  @media (max-width: 1000px) { .metric { grid-template-columns: 1fr; } }\n  @media (max-width: 760px) { body { padding: 12px; } .table-wrap { overflow-x: auto; } }\n  @media (max-width: 760px) { svg.trend text { font-size: 13px; } }\n  @media (max-width: 560px) { svg.trend text { font-size: 17px; } svg.trend text.when { display: none; } }\n  @media (max-width: 440px) { svg.trend text { font-size: 22px; } }\n  @media (max-width: 356px) { svg.trend text { font-size: 26px; } }\n</style>\n</head>\n<body>\n<main>\n<header class="summary">\n  <h1>'
    yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'heading'), (undefined(name='trend') if l_1_trend is missing else l_1_trend))))
    yield '</h1>\n  <p>'
    yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'order_note'), (undefined(name='trend') if l_1_trend is missing else l_1_trend))))
    yield ' A picture of earlier runs: it changes no verdict.</p>\n</header>\n<ol class="strip" aria-label="each run\'s verdict, oldest first">\n'
    for l_2_run in environment.getattr((undefined(name='trend') if l_1_trend is missing else l_1_trend), 'runs'):
        _loop_vars = {}
        pass
        yield '  <li class="'
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'verdict_class'), environment.getattr(l_2_run, 'verdict'), _loop_vars=_loop_vars)))
        yield '" title="run '
        yield escape(environment.finalize(environment.getattr(l_2_run, 'position')))
        yield ': '
        yield escape(environment.finalize(environment.getattr(l_2_run, 'source')))
        yield ', '
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'when'), l_2_run, _loop_vars=_loop_vars)))
        yield '">'
        yield escape(environment.finalize(t_2(environment.getattr(l_2_run, 'verdict'))))
        yield '</li>\n'
    l_2_run = missing
    yield '</ol>\n<ul class="legend">\n  <li><svg width="26" height="12" aria-hidden="true"><line x1="1" y1="6" x2="25" y2="6" stroke="#475467" stroke-width="2"/><circle cx="13" cy="6" r="4" fill="#475467"/></svg>value</li>\n  <li><svg width="26" height="12" aria-hidden="true"><rect x="1" y="1" width="24" height="10" fill="#98a2b3" opacity="0.45"/></svg>interval</li>\n  <li><svg width="26" height="12" aria-hidden="true"><line x1="1" y1="6" x2="25" y2="6" stroke="#101828" stroke-width="2"/></svg>threshold (dashed while proposed)</li>\n  <li><svg width="14" height="14" aria-hidden="true"><line x1="7" y1="0" x2="7" y2="14" stroke="#067647" stroke-width="1.5" stroke-dasharray="5 3"/></svg>authority changed</li>\n</ul>\n\n'
    l_2_loop = missing
    t_4 = 1
    for l_2_s, l_2_loop in LoopContext(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'worst_first'), (undefined(name='trend') if l_1_trend is missing else l_1_trend)), undefined):
        l_2_chart = resolve('chart')
        l_2_last = l_2_word = missing
        _loop_vars = {}
        pass
        l_2_last = environment.getattr(l_2_s, 'last')
        _loop_vars['last'] = l_2_last
        l_2_word = context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'status'), (undefined(name='last') if l_2_last is missing else l_2_last), _loop_vars=_loop_vars)
        _loop_vars['word'] = l_2_word
        yield '<article class="metric '
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'status_class'), (undefined(name='word') if l_2_word is missing else l_2_word), _loop_vars=_loop_vars)))
        yield '">\n  <header><span class="badge">'
        yield escape(environment.finalize(t_2((undefined(name='word') if l_2_word is missing else l_2_word))))
        yield '</span><h3><code>'
        yield escape(environment.finalize(environment.getattr(l_2_s, 'id')))
        yield '</code></h3>'
        if context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'presence'), (undefined(name='trend') if l_1_trend is missing else l_1_trend), l_2_s, _loop_vars=_loop_vars):
            pass
            yield '<span class="none">'
            yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'presence'), (undefined(name='trend') if l_1_trend is missing else l_1_trend), l_2_s, _loop_vars=_loop_vars)))
            yield '</span>'
        yield '</header>\n  <dl class="numbers">\n    <dt>last value</dt><dd>'
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'value_text'), (undefined(name='last') if l_2_last is missing else l_2_last), _loop_vars=_loop_vars)))
        yield '</dd>\n    <dt>interval</dt><dd>'
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'interval_text'), (undefined(name='last') if l_2_last is missing else l_2_last), _loop_vars=_loop_vars)))
        yield '</dd>\n    <dt>n</dt><dd>'
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'n_text'), (undefined(name='last') if l_2_last is missing else l_2_last), _loop_vars=_loop_vars)))
        yield '</dd>\n    <dt>range</dt><dd>'
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'range_text'), l_2_s, _loop_vars=_loop_vars)))
        yield '</dd>\n    <dt>threshold</dt><dd>'
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'rule_text'), environment.getattr((undefined(name='last') if l_2_last is missing else l_2_last), 'rule'), _loop_vars=_loop_vars)))
        yield '</dd>\n    <dt>authority</dt><dd>'
        yield escape(environment.finalize(environment.getattr((undefined(name='last') if l_2_last is missing else l_2_last), 'outcome')))
        if environment.getattr((undefined(name='last') if l_2_last is missing else l_2_last), 'reasons'):
            pass
            yield ' ('
            l_3_loop = missing
            for l_3_r, l_3_loop in LoopContext(environment.getattr((undefined(name='last') if l_2_last is missing else l_2_last), 'reasons'), undefined):
                _loop_vars = {}
                pass
                yield '<code>'
                yield escape(environment.finalize(l_3_r))
                yield '</code>'
                yield escape(environment.finalize((', ' if (not environment.getattr(l_3_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 101 in 'trend.html.j2' evaluated to false and no else section was defined."))))
            l_3_loop = l_3_r = missing
            yield ')'
        yield '</dd>\n  </dl>\n  '
        yield escape(environment.finalize(context.call((undefined(name='chart') if l_2_chart is missing else l_2_chart), l_2_s, _loop_vars=_loop_vars)))
        yield '\n'
        if (environment.getattr(l_2_s, 'threshold_changes') or environment.getattr(l_2_s, 'authority_changes')):
            pass
            yield '  <div class="changes">\n'
            if environment.getattr(l_2_s, 'threshold_changes'):
                pass
                yield '    <span class="label">Threshold changed:</span>\n    <ul>\n'
                for l_3_c in environment.getattr(l_2_s, 'threshold_changes'):
                    _loop_vars = {}
                    pass
                    yield '      <li>run '
                    yield escape(environment.finalize(environment.getattr(l_3_c, 'position')))
                    yield ': '
                    yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'rule_text'), environment.getattr(l_3_c, 'before'), _loop_vars=_loop_vars)))
                    yield ' → '
                    yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'rule_text'), environment.getattr(l_3_c, 'after'), _loop_vars=_loop_vars)))
                    yield '</li>\n'
                l_3_c = missing
                yield '    </ul>\n'
            if environment.getattr(l_2_s, 'authority_changes'):
                pass
                yield '    <span class="label">Authority changed:</span>\n    <ul>\n'
                l_3_loop = missing
                for l_3_c, l_3_loop in LoopContext(environment.getattr(l_2_s, 'authority_changes'), undefined):
                    _loop_vars = {}
                    pass
                    yield '      <li>'
                    yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'change_text'), l_3_c, _loop_vars=_loop_vars)))
                    if environment.getattr(l_3_c, 'reasons'):
                        pass
                        yield ' ('
                        l_4_loop = missing
                        for l_4_r, l_4_loop in LoopContext(environment.getattr(l_3_c, 'reasons'), undefined):
                            _loop_vars = {}
                            pass
                            yield '<code>'
                            yield escape(environment.finalize(l_4_r))
                            yield '</code>'
                            yield escape(environment.finalize((', ' if (not environment.getattr(l_4_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 118 in 'trend.html.j2' evaluated to false and no else section was defined."))))
                        l_4_loop = l_4_r = missing
                        yield ')'
                    elif environment.getattr(l_3_c, 'cleared'):
                        pass
                        yield ' (cleared '
                        l_4_loop = missing
                        for l_4_r, l_4_loop in LoopContext(environment.getattr(l_3_c, 'cleared'), undefined):
                            _loop_vars = {}
                            pass
                            yield '<code>'
                            yield escape(environment.finalize(l_4_r))
                            yield '</code>'
                            yield escape(environment.finalize((', ' if (not environment.getattr(l_4_loop, 'last')) else cond_expr_undefined("the inline if-expression on line 118 in 'trend.html.j2' evaluated to false and no else section was defined."))))
                        l_4_loop = l_4_r = missing
                        yield ')'
                    yield '</li>\n'
                l_3_loop = l_3_c = missing
                yield '    </ul>\n'
            yield '  </div>\n'
        yield '</article>\n'
        t_4 = 0
    l_2_loop = l_2_s = l_2_last = l_2_word = l_2_chart = missing
    if t_4:
        pass
        yield '<p class="none">No metric in these scorecards.</p>\n'
    yield '\n<h2>Runs ('
    yield escape(environment.finalize(t_1(environment.getattr((undefined(name='trend') if l_1_trend is missing else l_1_trend), 'runs'))))
    yield ')</h2>\n<table class="runs">\n  <thead><tr><th>Run</th><th>Evaluated at</th><th>Verdict</th><th>Scorecard</th></tr></thead>\n  <tbody>\n'
    for l_2_run in environment.getattr((undefined(name='trend') if l_1_trend is missing else l_1_trend), 'runs'):
        _loop_vars = {}
        pass
        yield '    <tr><td>'
        yield escape(environment.finalize(environment.getattr(l_2_run, 'position')))
        yield '</td><td>'
        yield escape(environment.finalize(context.call(environment.getattr((undefined(name='v') if l_1_v is missing else l_1_v), 'when'), l_2_run, _loop_vars=_loop_vars)))
        yield '</td><td>'
        yield escape(environment.finalize(environment.getattr(l_2_run, 'verdict')))
        yield '</td><td><code>'
        yield escape(environment.finalize(environment.getattr(l_2_run, 'source')))
        yield '</code></td></tr>\n'
    l_2_run = missing
    yield '  </tbody>\n</table>\n</main>\n</body>\n</html>\n'
    context.eval_ctx.revert(t_3)
    l_1_v = l_1_trend = missing

blocks = {}
debug_info = '10=29&75=31&76=33&79=35&80=39&90=53&91=58&92=60&93=63&94=65&96=75&97=77&98=79&99=81&100=83&101=85&103=100&104=102&106=105&109=108&110=112&114=120&117=124&118=128&129=166&133=168&134=172'
