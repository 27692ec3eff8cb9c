"""The exception family for user mistakes: reported as one clear paragraph, never a traceback."""


class UserError(Exception):
    """A problem the user can fix (config, data, paths, unreachable servers)."""
