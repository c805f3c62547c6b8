"""Selectors, checked before they leave the macro (decisions.md §16).

A selector is keyword arguments naming an element by what it is: ``text``, ``text_contains``,
``text_matches`` (a regular expression in the syntax Python and ECMAScript share),
``resource_id``, ``desc``, ``desc_contains``, ``class_name``, ``clickable``, ``editable``,
``scrollable``, ``index``; or ``image_id`` (with ``threshold``); or ``ocr_text``. The service
checks the same rules again; checking here makes :func:`svc_device.locate` fail at once.
"""

import re

from ._transport import DeviceError

KEYS = (
    "text", "text_contains", "text_matches", "resource_id", "desc", "desc_contains",
    "class_name", "clickable", "editable", "scrollable", "index", "image_id", "threshold", "ocr_text",
)
_BOOL_KEYS = ("clickable", "editable", "scrollable")
_TREE_KEYS = tuple(k for k in KEYS if k not in ("image_id", "threshold", "ocr_text", "index"))
_COMMON_ESCAPES = set("dDwWsSbBntrfvxu")
_ONE_DIALECT = (
    (r"\(\?P", "named groups written (?P<name>...) are Python only"),
    (r"\(\?<(?![=!])", "named groups written (?<name>...) are ECMAScript only"),
    (r"\(\?[aiLmsux-]+[):]", "inline flags such as (?i) are Python only; use [Ss] for case"),
    (r"\(\?#", "comments (?#...) are Python only"),
    (r"\(\?>", "atomic groups (?>...) are Python only"),
    (r"\\[kKpPcAZzNgG]", "this escape is not read alike by Python and ECMAScript"),
    (r"[*+?}]\+", "possessive quantifiers (*+, ++) are Python only"),
)


def _refuse(path, message):
    return DeviceError("Validation failed: %s %s." % (path, message), "validation_failed")


def regex_problem(pattern):
    """Why ``pattern`` is refused, or None when both dialects read it alike."""
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            nxt = pattern[i + 1: i + 2]
            if nxt.isascii() and nxt.isalpha() and nxt not in _COMMON_ESCAPES:
                return "the escape \\%s is not read alike by Python and ECMAScript" % nxt
            i += 2
            continue
        i += 1
    for construct, why in _ONE_DIALECT:
        if re.search(construct, pattern):
            return why
    try:
        re.compile(pattern)
    except re.error as error:
        return "is not a valid regular expression (%s)" % error
    return None


def check(selector, path="selector"):
    """The selector as a dict for the service; DeviceError ``validation_failed`` naming the key."""
    if not selector:
        raise _refuse(path, "is empty: give at least one of " + ", ".join(KEYS))
    for key, value in selector.items():
        where = "%s.%s" % (path, key)
        if key not in KEYS:
            raise _refuse(where, "is not a selector key (the keys are %s)" % ", ".join(KEYS))
        if key in _BOOL_KEYS:
            if not isinstance(value, bool):
                raise _refuse(where, "must be True or False")
        elif key == "index":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise _refuse(where, "must be an integer of 0 or more")
        elif key == "threshold":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise _refuse(where, "must be a number from 0 to 1")
        elif not isinstance(value, str) or value.strip() == "":
            raise _refuse(where, "must be a non-empty string")
    if "text_matches" in selector:
        problem = regex_problem(selector["text_matches"])
        if problem:
            raise _refuse(path + ".text_matches", problem)
    if "image_id" in selector:
        for key in selector:
            if key not in ("image_id", "threshold"):
                raise _refuse("%s.%s" % (path, key), "cannot be combined with image_id (an image selector names the best match of the image)")
    elif "threshold" in selector:
        raise _refuse(path + ".threshold", "goes with image_id only")
    if "ocr_text" in selector:
        for key in selector:
            if key in _TREE_KEYS:
                raise _refuse("%s.%s" % (path, key), "cannot be combined with ocr_text (text read from the picture has no tree attributes)")
    return dict(selector)


def describe(selector):
    """``text='Sign in', clickable=True``: how a selector reads in a message."""
    return ", ".join("%s=%r" % (k, v) for k, v in selector.items())
