"""The HTTP side of svc_device: one kept-alive connection to the device RPC.

Standard library only. Calls go as ``POST {SVC_DEVICE_URL}/{function}`` with
``Authorization: Bearer {SVC_RUN_TOKEN}`` and a JSON body. The connection is made directly,
never through HTTP_PROXY/HTTPS_PROXY/ALL_PROXY: those carry the macro's own traffic through
the device's proxy, while the device RPC is the service itself.
"""

import http.client
import json
import os
import platform
import urllib.parse

#: Seconds one call may take, connection included; a device action answers well within it.
TIMEOUT_SECONDS = 120

_USER_AGENT = "svc_device/1.0 (Python %s)" % platform.python_version()


class DeviceError(Exception):
    """A device call that failed.

    ``message`` is a sentence saying what went wrong, ``code`` the service's machine-readable
    code (``text_not_found``, ``validation_failed``, ``device_not_ready``,
    ``invalid_run_token``, ...), ``status`` the HTTP status
    (None when the service could not be reached).
    """

    def __init__(self, message, code=None, status=None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status

    def __str__(self):
        return "%s (%s)" % (self.message, self.code) if self.code else self.message


class _Connection:
    def __init__(self):
        self._conn = None
        self._base = None

    def _settings(self):
        url = os.environ.get("SVC_DEVICE_URL")
        token = os.environ.get("SVC_RUN_TOKEN")
        if not url or not token:
            raise DeviceError(
                "svc_device works inside a cloud run: SVC_DEVICE_URL and SVC_RUN_TOKEN are not set",
                "not_in_a_run",
            )
        return urllib.parse.urlsplit(url), token

    def _open(self, base):
        port = base.port
        if base.scheme == "https":
            return http.client.HTTPSConnection(base.hostname, port or 443, timeout=TIMEOUT_SECONDS)
        if base.scheme == "http":
            return http.client.HTTPConnection(base.hostname, port or 80, timeout=TIMEOUT_SECONDS)
        raise DeviceError("SVC_DEVICE_URL must be an http:// or https:// URL", "not_in_a_run")

    def call(self, function, payload=None, timeout=None):
        """POSTs one call; answers the decoded JSON, or the bytes of a non-JSON answer.

        ``timeout`` (seconds) replaces TIMEOUT_SECONDS for a call that may wait on the device
        longer (a locator waits up to 600 s).
        """
        seconds = TIMEOUT_SECONDS if timeout is None else max(TIMEOUT_SECONDS, timeout)
        base, token = self._settings()
        body = json.dumps(payload if payload is not None else {}).encode("utf-8")
        headers = {
            "Authorization": "Bearer " + token,
            "Content-Type": "application/json",
            "Accept": "application/json, image/png",
            "User-Agent": _USER_AGENT,
        }
        path = base.path.rstrip("/") + "/" + function
        for attempt in (1, 2):
            reused = self._conn is not None and self._base == base
            if not reused:
                self.close()
                self._conn, self._base = self._open(base), base
            try:
                self._conn.timeout = seconds
                if self._conn.sock is not None:
                    self._conn.sock.settimeout(seconds)
                self._conn.request("POST", path, body=body, headers=headers)
                response = self._conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as error:
                self.close()
                # A kept-alive connection the server had already closed: the request never
                # arrived, so sending it once more on a fresh connection is safe.
                if reused and attempt == 1:
                    continue
                raise DeviceError("the device service closed the connection: %s" % error, "connection_failed") from None
            except OSError as error:
                self.close()
                raise DeviceError("the device service cannot be reached: %s" % error, "connection_failed") from None
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        kind = response.getheader("Content-Type", "")
        if response.status >= 400:
            raise _error_from(response.status, kind, data)
        if kind.startswith("application/json"):
            return json.loads(data.decode("utf-8"))
        return data

    def close(self):
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None


def _error_from(status, kind, data):
    message, code = "the device call failed with HTTP status %d" % status, None
    if kind.startswith("application/json"):
        try:
            envelope = json.loads(data.decode("utf-8"))
            message = envelope.get("message") or message
            code = (envelope.get("details") or {}).get("code")
        except (ValueError, AttributeError):
            pass
    return DeviceError(message, code, status)


connection = _Connection()
