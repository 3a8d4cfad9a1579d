# Compiled from templates/history.txt.j2 by evalglass/render/_templates.py; do not edit.
# ruff: noqa
# mypy: ignore-errors
KEY = 'ca8a7d6b816a9c8e84dbdf66f1ce8498f55819cdad2bdf42455d978441690692'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'history.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_history = resolve('history')
    l_0_changed = l_0_broken = missing
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_2 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_3 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_4 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_changed = t_1(t_2(context.eval_ctx, t_3(context, environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'entries'), 'error')))
    context.vars['changed'] = l_0_changed
    context.exported_vars.add('changed')
    l_0_broken = t_1(t_2(context.eval_ctx, t_4(context, environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'entries'), 'error')))
    context.vars['broken'] = l_0_broken
    context.exported_vars.add('broken')
    yield 'History of '
    yield str(environment.finalize(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'metric')))
    yield ' in '
    yield str(environment.finalize(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'folder')))
    if environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'since'):
        pass
        yield ' since '
        yield str(environment.finalize(environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'since')))
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
    yield ' read), oldest first\n'
    for l_1_c in environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'cut_at'):
        _loop_vars = {}
        pass
        yield 'History cut at '
        yield str(environment.finalize(environment.getattr(l_1_c, 'id')[:12]))
        yield ' ('
        yield str(environment.finalize(environment.getattr(l_1_c, 'subject')))
        yield '): this clone lacks its parents (a shallow clone); what the records held there is where this history starts, not a change by '
        yield str(environment.finalize(environment.getattr(l_1_c, 'author')))
        yield '. `git fetch --unshallow` reads the rest.\n'
    l_1_c = missing
    t_6 = 1
    for l_1_e in environment.getattr((undefined(name='history') if l_0_history is missing else l_0_history), 'entries'):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_e, 'commit'), 'id')[:12]))
        yield '  '
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_e, 'commit'), 'date')))
        yield '  '
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_e, 'commit'), 'author')))
        yield ' <'
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_e, 'commit'), 'email')))
        yield '>\n  '
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_e, 'commit'), 'subject')))
        yield '\n'
        if environment.getattr(l_1_e, 'error'):
            pass
            yield '  records do not load: '
            yield str(environment.finalize(environment.getattr(l_1_e, 'error')))
            yield '\n'
        else:
            pass
            for l_2_c in environment.getattr(l_1_e, 'changes'):
                _loop_vars = {}
                pass
                yield '  '
                yield str(environment.finalize(environment.getattr(l_2_c, 'file')))
                yield ' '
                yield str(environment.finalize(environment.getattr(l_2_c, 'record')))
                yield ': '
                yield str(environment.finalize(environment.getattr(l_2_c, 'field')))
                yield ': '
                yield str(environment.finalize((environment.getattr(l_2_c, 'old') if (not t_5(environment.getattr(l_2_c, 'old'))) else '—')))
                yield ' → '
                yield str(environment.finalize((environment.getattr(l_2_c, 'new') if (not t_5(environment.getattr(l_2_c, 'new'))) else '—')))
                yield '\n'
            l_2_c = missing
        t_6 = 0
    l_1_e = missing
    if t_6:
        pass
        yield '\nNo commit changed a record behind it.\n'

blocks = {}
debug_info = '2=43&3=46&4=50&5=70&6=74&8=82&10=86&11=94&12=96&13=99&15=103&16=107'
