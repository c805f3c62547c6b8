"""Locators, waiting and interrupts (decisions.md §16), over the device-action catalogue.

Each call goes to ``POST {SVC_DEVICE_URL}/actions/{name}``, where ``name`` is the action's
name in the catalogue the tool server and block programs use (``device_tap``,
``device_wait_for``, ...); the SDK name drops the ``device_`` prefix. The service does the
waiting, so a macro, a block program and an AI client wait the same way on the same screen.
"""

from ._selectors import check as _check
from ._selectors import describe as _describe
from ._transport import DeviceError, connection as _connection

_MAX_TIMEOUT_MS = 600_000
#: Seconds a call may take beyond its own wait (the last look, the tap itself).
_SLACK_SECONDS = 60

_state = {"timeout_ms": None, "interrupts": []}


def action(name, body, wait_ms=None):
    """Runs one catalogue action; prints the run-log lines it wrote (interrupts handled)."""
    payload = dict(body)
    if _state["interrupts"]:
        payload["interrupts"] = list(_state["interrupts"])
    timeout = None if wait_ms is None else wait_ms / 1000 + _SLACK_SECONDS
    answer = _connection.call("actions/" + name, payload, timeout=timeout)
    for line in answer.get("log", []):
        print(line, flush=True)
    return answer["result"]


def _timeout(timeout_ms):
    ms = _state["timeout_ms"] if timeout_ms is None else timeout_ms
    if ms is None:
        return {}, 10_000
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= _MAX_TIMEOUT_MS:
        raise DeviceError("Validation failed: timeout_ms must be a whole number from 0 to %d." % _MAX_TIMEOUT_MS, "validation_failed")
    return {"timeout_ms": ms}, ms


def set_default_timeout(ms):
    """How long every later locator action waits when it is not told (default 10000 ms)."""
    _timeout(ms)
    _state["timeout_ms"] = ms


class Locator:
    """An element named by what it is. Actions wait until exactly one visible element matches,
    the screen has loaded and settled; several matches fail at once (``ambiguous_selector``),
    none in time fails with ``element_not_found`` saying what the screen showed."""

    def __init__(self, selector):
        self.selector = _check(selector)

    def __repr__(self):
        return "locate(%s)" % _describe(self.selector)

    def _wait(self, timeout_ms, **extra):
        limit, ms = _timeout(timeout_ms)
        return action("device_wait_for", dict(selector=self.selector, **limit, **extra), ms)

    def tap(self, timeout_ms=None):
        """Tap the element; returns the element the tap hit (a dict) or None."""
        limit, ms = _timeout(timeout_ms)
        return action("device_tap", dict(selector=self.selector, **limit), ms)["hit"]

    def long_press(self, ms=800, timeout_ms=None):
        """Press and hold the element for ``ms``; returns the element."""
        limit, wait = _timeout(timeout_ms)
        return action("device_long_press", dict(selector=self.selector, ms=ms, **limit), wait)["element"]

    def type(self, text, clear=True, submit=False, secret=False, timeout_ms=None):
        """Tap the element, empty it (``clear``), type ``text``, press ENTER (``submit``).
        ``secret`` keeps the text out of every log."""
        limit, ms = _timeout(timeout_ms)
        body = dict(selector=self.selector, text=text, clear=clear, submit=submit, secret=secret, **limit)
        return action("device_type", body, ms)["element"]

    def wait(self, timeout_ms=None):
        """Wait for the element and return it."""
        return self._wait(timeout_ms)["element"]

    def wait_gone(self, timeout_ms=None):
        """Wait until no element matches."""
        self._wait(timeout_ms, gone=True)

    def exists(self, timeout_ms=0):
        """Whether an element matches (within ``timeout_ms``; default: now)."""
        if timeout_ms == 0:
            return self.count() > 0
        try:
            self.wait(timeout_ms)
            return True
        except DeviceError as error:
            if error.code == "ambiguous_selector":
                return True
            if error.code == "element_not_found":
                return False
            raise

    def text(self, timeout_ms=None):
        """The element's text, once it shows."""
        return self.wait(timeout_ms)["text"]

    def bounds(self):
        """The element's bounds ``{left, top, right, bottom}``, once it shows."""
        return self.wait()["bounds"]

    def count(self):
        """How many visible elements match now (no wait)."""
        return len(self.all())

    def all(self):
        """Every visible element that matches now, in tree order (no wait)."""
        return action("device_find", {"selector": self.selector})["items"]

    def scroll_to(self, max_swipes=10, direction="down"):
        """Swipe in the first scrollable container until the element shows; returns it."""
        result = action("device_scroll_to", {"selector": self.selector, "max_swipes": max_swipes, "direction": direction}, 10_000 + max_swipes * 5_000)
        return result["element"]


def locate(**selector):
    """A :class:`Locator` for the element the keyword arguments name.

    >>> locate(text="Sign in").tap()
    >>> locate(resource_id="email").type("ada@example.com")
    >>> locate(text_matches=r"^Post \\d+$", index=0).text()
    """
    return Locator(selector)


class _When:
    def __init__(self, selector):
        self.selector = _check(selector, "when")

    def tap(self, **target):
        """While a wait polls and this shows: tap it (or ``selector=dict(...)``, or ``x=, y=``)."""
        do = {"type": "tap"}
        if "selector" in target:
            do["selector"] = _check(target.pop("selector"), "do.selector")
        if "x" in target or "y" in target:
            do["x"], do["y"] = target.pop("x"), target.pop("y")
        if target:
            raise DeviceError("Validation failed: when().tap takes selector or x and y; not %s." % ", ".join(target), "validation_failed")
        _state["interrupts"].append({"when": self.selector, "do": do})

    def key(self, name):
        """While a wait polls and this shows: press the key ``name`` (``BACK``, ...)."""
        _state["interrupts"].append({"when": self.selector, "do": {"type": "key", "key": name}})


def when(**selector):
    """Registers an interrupt: while any wait polls, a dialog this selector names is handled
    first (at most five times a wait), and the run log says so.

    >>> when(text="Not now").tap()
    >>> when(text="Rate Daily Feed").key("BACK")
    """
    return _When(selector)


def read_text(region=None, ocr=False):
    """The text on the screen as lines ``{text, bounds, center, source, confidence}`` in
    reading order: from the UI tree (``source`` ``"tree"``), or with ``ocr=True`` from the
    picture (``"ocr"``); ``region`` ``{left, top, right, bottom}`` keeps the lines inside it.

    >>> [line["text"] for line in read_text()]
    """
    body = {"ocr": bool(ocr)}
    if region is not None:
        body["region"] = region
    return action("device_read_text", body)["lines"]
