"""svc_device: drive the cloud device your macro runs on.

Every cloud run has this package on its PYTHONPATH, so a macro simply writes::

    import svc_device as device

    device.open_app("com.example.shop")
    device.tap_text("Espresso beans")
    device.tap_text("Add to cart")
    if device.find_text("Added to cart"):
        device.log("in the cart")

Coordinates are device pixels from the top-left corner. Elements are dicts with
``element_id``, ``class``, ``text``, ``resource_id``, ``content_desc``, ``bounds``
(``left``, ``top``, ``right``, ``bottom``), ``center`` (``x``, ``y``), ``clickable``,
``editable``, ``scrollable`` (a container that scrolls, such as a list) and, when known,
``focused``.

Locators find an element by what it is and wait for it (``locate``, ``when``,
``set_default_timeout``, ``read_text``; see ``_locators``)::

    device.when(text="Not now").tap()
    device.locate(resource_id="email").type("ada@example.com")
    device.locate(text="Sign in", clickable=True).tap()
    device.locate(text="Post 80").scroll_to()

Every call that reaches the device raises :class:`DeviceError` when it fails, with the
service's message, ``code`` and HTTP ``status``. Standard library only.
"""

from __future__ import annotations

import json as _json
import os as _os
import sys as _sys
import time as _time

from ._transport import DeviceError, connection as _connection
from ._locators import Locator, locate, read_text, set_default_timeout, when

# Shown (in tracebacks, in the run's last stderr line) as svc_device.DeviceError.
DeviceError.__module__ = "svc_device"

__all__ = [
    "DeviceError",
    "args",
    "close_app",
    "current_app",
    "emit_event",
    "find_image",
    "find_text",
    "key",
    "Locator",
    "locate",
    "read_text",
    "set_default_timeout",
    "when",
    "log",
    "open_app",
    "screenshot",
    "swipe",
    "tap",
    "tap_element",
    "tap_text",
    "type_text",
    "ui_tree",
    "wait",
]

__version__ = "1.1"


def tap(x: int, y: int) -> dict | None:
    """Tap the point (x, y). Returns the element that was hit (a dict) or None.

    >>> tap(540, 1200)
    """
    return _connection.call("tap", {"x": x, "y": y})["element"]


def tap_text(text: str) -> dict:
    """Tap the centre of the element showing ``text`` and return that element.

    An element whose text or description is exactly ``text`` wins; otherwise one that
    contains it, ignoring case. A clickable element is preferred. Raises DeviceError
    (code ``text_not_found``) when nothing on the screen shows it.

    >>> tap_text("Sign in")
    """
    return _connection.call("tap_text", {"text": text})["element"]


def tap_element(element_id: str) -> dict:
    """Tap the centre of the element with this ``element_id`` (from :func:`ui_tree`).

    Raises DeviceError (code ``element_not_found``) when the screen has no such element.

    >>> tap_element("checkout")
    """
    return _connection.call("tap_element", {"element_id": element_id})["element"]


def swipe(x1: int, y1: int, x2: int, y2: int, ms: int = 300) -> None:
    """Swipe from (x1, y1) to (x2, y2), the finger moving for ``ms`` milliseconds.

    >>> swipe(540, 1800, 540, 600)          # scroll down
    """
    _connection.call("swipe", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "ms": ms})


def type_text(text: str, secret: bool = False) -> None:
    """Type ``text`` into the focused field; ``"\\n"`` presses ENTER. ``secret=True`` (a
    password) keeps the text out of the run's trace, which shows ``"•••"`` instead.

    >>> tap_element("email"); type_text("ada@example.com")
    >>> tap_element("password"); type_text(password, secret=True)
    """
    _connection.call("type_text", {"text": text, "secret": True} if secret else {"text": text})


def key(name: str) -> None:
    """Press an Android key: ``BACK``, ``HOME``, ``ENTER``, ``APP_SWITCH``, ``DEL``, ...

    >>> key("BACK")
    """
    _connection.call("key", {"name": name})


def screenshot() -> bytes:
    """The screen as PNG bytes.

    >>> open("screen.png", "wb").write(screenshot())
    """
    return _connection.call("screenshot")


def ui_tree() -> list[dict]:
    """Every element of the front window, in document order (a list of dicts).

    >>> [e["text"] for e in ui_tree() if e["clickable"]]
    """
    return _connection.call("ui_tree")["elements"]


def find_text(text: str) -> dict | None:
    """The element showing ``text`` (matched as :func:`tap_text` does), or None.

    >>> if find_text("Order placed"): log("done")
    """
    return _connection.call("find_text", {"text": text})["element"]


def find_image(image_id: str, threshold: float = 0.9) -> list[dict]:
    """Where the library image ``image_id`` shows on the screen: a list of matches
    ``{x, y, w, h, score}``, best first.

    ``x, y`` is the top-left corner in device pixels; tap a match at
    ``(x + w // 2, y + h // 2)``. Matches hold across screen densities (0.5x to 2x).
    An empty list means the image does not show now; an id that is not in your
    image library raises DeviceError with code ``not_found``.

    >>> find_image("img_0123456789abcdef")
    """
    return _connection.call("find_image", {"image_id": image_id, "threshold": threshold})["matches"]


def open_app(package: str) -> None:
    """Bring the app to the front (its last screen if it was running).

    >>> open_app("com.example.shop")
    """
    _connection.call("open_app", {"package": package})


def close_app(package: str) -> None:
    """Force-stop the app: its screens and unsaved field contents are gone.

    >>> close_app("com.example.shop")
    """
    _connection.call("close_app", {"package": package})


def current_app() -> str:
    """The package name of the app in front.

    >>> current_app()
    'com.example.shop'
    """
    return _connection.call("current_app")["package"]


def wait(ms: int) -> None:
    """Pause the macro for ``ms`` milliseconds (in the macro's own process).

    >>> wait(500)
    """
    if ms < 0:
        raise ValueError("wait(ms) needs ms >= 0")
    _time.sleep(ms / 1000)


def log(message: object) -> None:
    """Write ``message`` to the run's log (stdout, at once; one log line per line).

    >>> log("signed in")
    """
    print(message, file=_sys.stdout, flush=True)


def emit_event(name: str, data: dict | None = None) -> str:
    """Record the event ``custom.<name>`` with ``data`` (a dict, at most 64 KB as JSON);
    webhooks subscribed to it receive ``{device_id, group_id, execution_id, data}``.
    Returns the event id.

    >>> emit_event("order_placed", {"total": 9.5})
    """
    return _connection.call("emit_event", {"name": name, "data": data if data is not None else {}})["event_id"]


def args() -> dict:
    """The run's arguments (its settings profile with the run's own ``args`` laid over
    them), as a dict: MACRO_ARGS decoded.

    >>> args().get("email")
    """
    return _json.loads(_os.environ.get("MACRO_ARGS") or "{}")
