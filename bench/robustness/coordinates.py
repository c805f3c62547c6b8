"""Daily Feed by coordinates and fixed sleeps: open the app, dismiss "Rate Daily Feed" when it
comes, scroll to the 80th post, open it, save it.

Written as a person writes it after watching one run and reading its screenshots (the bench
in ../locator-robustness.js runs it beside locators.py). In that run the dialog came at once,
over the loading spinner, and the feed had loaded within about 1.5 s; each slow swipe moved
the feed by the finger's distance, so 15 of them put the 80th post in the middle of the screen.
A tap on the spinner does nothing, so tapping where "Not now" was, half a second after opening,
is harmless when the dialog does not come. Nothing here looks at the screen.
"""

import json

import svc_device as device

FEED = "com.example.feed"

device.open_app(FEED)
device.wait(500)                      # the dialog showed over the spinner at once
not_now = device.tap(515, 1316)       # "Not now" (on the spinner: nothing)
device.wait(2000)                     # the feed had loaded after about 1.5 s
for _ in range(15):                   # 15 × 1250 px: the 80th post's row at y 1410–1662
    device.swipe(540, 1900, 540, 650, 400)
    device.wait(300)
opened = device.tap(540, 1536)        # the 80th post
device.wait(1000)                     # the post opens without loading
device.tap(540, 2241)                 # "Save post"
device.wait(500)
print("not now tap hit " + json.dumps(not_now and not_now.get("element_id")), flush=True)
print("opened " + json.dumps(opened), flush=True)
