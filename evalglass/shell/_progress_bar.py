"""The terminal's progress bar, drawn by rich.progress: imported only once a bar is to be shown,
so a run whose outputs read quickly (or that has no terminal) never loads rich.

It draws what shell/progress.py lays out (the name, shortened to fit; the bar's width; the
numbers) and clears itself when the output is read, leaving the line after it to say so."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskID, TextColumn


class Drawn:
    """One output's bar on `stream`, redrawn in place on each `draw`."""

    def __init__(self, stream: TextIO, width: int) -> None:
        self._bar = BarColumn(bar_width=None)
        console = Console(file=stream, width=width, force_terminal=True, highlight=False)
        self._progress = Progress(
            TextColumn("reading {task.description}"),
            self._bar,
            TextColumn("{task.fields[numbers]}", markup=False),
            console=console,
            auto_refresh=False,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._task: TaskID | None = None

    def draw(self, name: str, cells: int, numbers: str, done: int, total: int) -> None:
        """The bar `cells` wide at done of total (no total: a bar that only moves)."""
        self._bar.bar_width = cells
        description, counted = escape(name), total or None
        if self._task is None:
            self._task = self._progress.add_task(
                description, total=counted, completed=done, numbers=numbers
            )
            # Started once the task is filled in, so that its first frame is a whole one.
            self._progress.start()
            return
        self._progress.update(
            self._task,
            description=description,
            total=counted,
            completed=done,
            refresh=True,
            numbers=numbers,
        )

    def clear(self) -> None:
        """Take the bar off the terminal (a transient display leaves nothing behind)."""
        self._progress.stop()
