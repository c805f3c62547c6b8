"""Daily Feed by locators: open the app, dismiss "Rate Daily Feed" when it comes, scroll to the
80th post, open it, save it.

Posts carry no numbers: the 80th post's headline is "The quiet comeback of the river clean-up"
(src/modules/devices/hosts/sim/apps/daily-feed/posts.ts, post index 79). Every action waits
until its element shows and the screen has settled; the dialog is an interrupt, handled
whenever it shows during a wait. The bench in ../locator-robustness.js runs it beside
coordinates.py.
"""

import json

import svc_device as device

FEED = "com.example.feed"
POST_80 = "The quiet comeback of the river clean-up"

device.when(text="Not now").tap()     # "Rate Daily Feed", on every third open
device.open_app(FEED)
post = device.locate(text=POST_80)
post.scroll_to(max_swipes=30)
opened = post.tap()
device.locate(text="Save post").tap()
device.locate(text="Saved").wait()
print("opened " + json.dumps(opened), flush=True)
