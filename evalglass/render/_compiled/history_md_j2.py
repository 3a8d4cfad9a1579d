# Compiled from templates/history.md.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = '72556e8fec4791d614ad27e2b4fad2d560d17929769f36ddcc33fb76457cb55d'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'history.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_history = resolve('history')
    l_0_changed = l_0_broken = missing
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
        t_3 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_4 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    try:
        t_5 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_6 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_7 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_changed = t_2(t_3(context.eval_ctx, t_5(context, environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'entries'), 'error')))
    context.vars['changed'] = l_0_changed
    context.exported_vars.add('changed')
    l_0_broken = t_2(t_3(context.eval_ctx, t_6(context, environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'entries'), 'error')))
    context.vars['broken'] = l_0_broken
    context.exported_vars.add('broken')
    yield '**History of '
    yield str(environment.finalize(t_1(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'metric'))))
    yield ' in '
    yield str(environment.finalize(t_1(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'folder'))))
    if environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'since'):
        pass
        yield ' since '
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'since'))))
    yield ': '
    yield str(environment.finalize((undefined(name='changed') if l_0_changed is missing else l_0_changed)))
    yield ' commit'
    yield str(environment.finalize(('' if ((undefined(name='changed') if l_0_changed is missing else l_0_changed) == 1) else 's')))
    yield ' changed its records'
    if (undefined(name='broken') if l_0_broken is missing else l_0_broken):
        pass
        yield ', '
        yield str(environment.finalize((undefined(name='broken') if l_0_broken is missing else l_0_broken)))
        yield ' did not load'
    yield ' ('
    yield str(environment.finalize(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'commits_read')))
    yield ' read), oldest first**\n'
    for l_1_c in environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'cut_at'):
        _loop_vars = {}
        pass
        yield '\nHistory cut at '
        yield str(environment.finalize(t_1(environment.getattr(l_1_c, 'id')[:12])))
        yield ' ('
        yield str(environment.finalize(t_4(environment.getattr(l_1_c, 'subject'))))
        yield '): this clone lacks its parents (a shallow clone); what the records held there is where this history starts, not a change by '
        yield str(environment.finalize(t_4(environment.getattr(l_1_c, 'author'))))
        yield '. `git fetch --unshallow` reads the rest.\n'
    l_1_c = missing
    if environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'entries'):
        pass
        yield '\n| Commit | Date | Author | Record | Field | Before | After |\n|---|---|---|---|---|---|---|\n'
        l_1_loop = missing
        for l_1_e, l_1_loop in LoopContext(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'entries'), undefined):
            _loop_vars = {}
            pass
            if environment.getattr(l_1_e, 'error'):
                pass
                yield '| '
                yield str(environment.finalize(t_1(environment.getattr(environment.getattr(l_1_e, 'commit'), 'id')[:12])))
                yield ' '
                yield str(environment.finalize(t_4(environment.getattr(environment.getattr(l_1_e, 'commit'), 'subject'))))
                yield ' | '
                yield str(environment.finalize(t_4(environment.getattr(environment.getattr(l_1_e, 'commit'), 'date'))))
                yield ' | '
                yield str(environment.finalize(t_4(environment.getattr(environment.getattr(l_1_e, 'commit'), 'author'))))
                yield ' | records do not load | | '
                yield str(environment.finalize(t_4(environment.getattr(l_1_e, 'error'))))
                yield ' | |\n'
            else:
                pass
                l_2_loop = missing
                for l_2_c, l_2_loop in LoopContext(environment.getattr(l_1_e, 'changes'), undefined):
                    _loop_vars = {}
                    pass
                    yield '| '
                    if environment.getattr(l_2_loop, 'first'):
                        pass
                        yield str(environment.finalize(t_1(environment.getattr(environment.getattr(l_1_e, 'commit'), 'id')[:12])))
                        yield ' '
                        yield str(environment.finalize(t_4(environment.getattr(environment.getattr(l_1_e, 'commit'), 'subject'))))
                    yield ' | '
                    if environment.getattr(l_2_loop, 'first'):
                        pass
                        yield str(environment.finalize(t_4(environment.getattr(environment.getattr(l_1_e, 'commit'), 'date'))))
                    yield ' | '
                    if environment.getattr(l_2_loop, 'first'):
                        pass
                        yield str(environment.finalize(t_4(environment.getattr(environment.getattr(l_1_e, 'commit'), 'author'))))
                    yield ' | '
                    yield str(environment.finalize(t_1(environment.getattr(l_2_c, 'file'))))
                    yield ' '
                    yield str(environment.finalize(t_1(environment.getattr(l_2_c, 'record'))))
                    yield ' | '
                    yield str(environment.finalize(t_1(environment.getattr(l_2_c, 'field'))))
                    yield ' | '
                    if (not t_7(environment.getattr(l_2_c, 'old'))):
                        pass
                        yield str(environment.finalize(t_1(environment.getattr(l_2_c, 'old'))))
                    else:
                        pass
                        yield '—'
                    yield ' | '
                    if (not t_7(environment.getattr(l_2_c, 'new'))):
                        pass
                        yield str(environment.finalize(t_1(environment.getattr(l_2_c, 'new'))))
                    else:
                        pass
                        yield '—'
                    yield ' |\n'
                l_2_loop = l_2_c = missing
        l_1_loop = l_1_e = missing
    else:
        pass
        yield '\nNo commit changed a record behind it.\n'

blocks = {}
debug_info = '2=55&3=58&4=62&5=82&7=86&9=93&13=97&14=100&15=103&17=116&18=120'
