"""How a run of ``freecell analyze`` fails: the folder or the scheduler refused, or the cluster.

Each error's ``str()`` is the command's one line; :func:`short_reason` puts the cause of
another error into it. The command's exit status tells them apart: 2 for :class:`RefusedError`
(the input: a folder, an address), 1 for :class:`ClusterError`.
"""

from __future__ import annotations

from freecell._errors import shorten


class RefusedError(Exception):
    """The folder or the scheduler cannot be used; ``str()`` is the message (exit status 2)."""


class ClusterError(Exception):
    """The cluster could not do the work; ``str()`` is the message (exit status 1)."""


def short_reason(error: BaseException) -> str:
    r"""Return why an error happened, as a short line.

    That is the system's words, or the first 40 characters of a library's message (which may
    quote whole inputs, over several lines).

    >>> short_reason(PermissionError(13, "Permission denied"))
    'Permission denied'
    >>> short_reason(ValueError("a\nb" * 30))[-4:]
    ' ba…'
    """
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return shorten(" ".join(text.split()))
