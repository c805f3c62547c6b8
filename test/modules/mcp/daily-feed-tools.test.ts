// Daily Feed through what a user has (decisions.md §15): the tool server's UI tree, screenshot,
// tap, swipe, key and app tools, and the live view's tap and screenshot routes, on a leased
// simulated device. The device's time is the app's injected clock: the test moves it.
import { describe, expect, test } from 'vitest';
import { FEED_POSTS } from '../../../src/modules/devices/hosts/sim/apps/daily-feed/posts.js';
import { createCloudDevice } from '../../helpers/resources.js';
import { decode, hex, near } from '../devices/hosts/helpers/pixels.js';
import { call, data } from './helpers/client.js';
import { useMcpWorld } from './helpers/world.js';

const w = useMcpWorld();
const FEED = 'com.example.feed';
const PRIMARY = '#00677F';

type El = { element_id: string; class: string; text: string; content_desc: string; resource_id: string; clickable: boolean; scrollable: boolean; center: { x: number; y: number }; bounds: { left: number; top: number; right: number; bottom: number } };
type Client = Awaited<ReturnType<typeof w.clientFor>>;

async function leased(name: string) {
  const device = await createCloudDevice(w.t.app, w.owner, { name });
  const client = await w.clientFor(w.owner, ['devices:control']);
  const { lease_id } = data<{ lease_id: string }>(await call(client, 'device_lease', { device_id: device.id }));
  const tree = async () => data<{ elements: El[] }>(await call(client, 'device_ui_tree', { lease_id })).elements;
  const tap = async (args: Record<string, unknown>) => data<{ hit: El | null }>(await call(client, 'device_tap', { lease_id, ...args })).hit;
  const key = async (k: string) => expect((await call(client, 'device_key', { lease_id, key: k })).isError).toBeFalsy();
  const open = async () => expect((await call(client, 'app_open', { lease_id, package: FEED })).isError).toBeFalsy();
  const swipe = async (from: [number, number], to: [number, number], ms: number) => expect((await call(client, 'device_swipe', { lease_id, from: { x: from[0], y: from[1] }, to: { x: to[0], y: to[1] }, ms })).isError).toBeFalsy();
  return { id: device.id, client, lease_id, tree, tap, key, open, swipe };
}

async function shot(client: Client, lease_id: string) {
  const image = (await call(client, 'device_screenshot', { lease_id })).content[1] as { data: string };
  // 576×1280 for a 1080×2400 screen: device pixel × 0.5333.
  const decoded = await decode(Buffer.from(image.data, 'base64'));
  return (x: number, y: number) => decoded.pixel(Math.round(x * (576 / 1080)), Math.round(y * (1280 / 2400)));
}

/** Past any loading time the feed can draw (0.5 to 2.5 s). */
const waitOutLoading = () => w.t.clock.advance(2_500);

describe('Daily Feed on a leased simulated device', () => {
  test('is installed beside Corner Shop; its feed loads first: one ProgressBar, a spinner, and a tap does nothing, through the tool and the live view', async () => {
    const d = await leased('Loader');
    const { items } = data<{ items: { package: string; label: string }[] }>(await call(d.client, 'app_list', { lease_id: d.lease_id }));
    expect(items.map((a) => a.label)).toEqual(expect.arrayContaining(['Corner Shop', 'Daily Feed']));
    await d.open();
    expect((await d.tree()).map((e) => [e.class, e.resource_id, e.text])).toEqual([['android.widget.ProgressBar', 'android:id/progress', '']]);
    const loadingPicture = await shot(d.client, d.lease_id);
    expect(near(loadingPicture(540, 1200 - 58), PRIMARY, 40) || near(loadingPicture(540 + 58, 1200), PRIMARY, 40) || near(loadingPicture(540, 1200 + 58), PRIMARY, 40)).toBe(true);
    // Where the first post will be: neither the tool's tap nor the live view's lands on anything.
    expect(await d.tap({ x: 540, y: 378 })).toBeNull();
    const viaRoute = await w.t.app.inject({ method: 'POST', url: `/api/hosted/devices/${d.id}/tap`, headers: w.owner.auth, payload: { x: 540, y: 630 } });
    expect([viaRoute.statusCode, viaRoute.json()]).toEqual([200, { element: null }]);
    waitOutLoading();
    const feed = await d.tree();
    expect(feed.filter((e) => e.resource_id === `${FEED}:id/post_row`).length).toBeGreaterThan(5);
    expect(feed.find((e) => e.element_id === 'title')?.text).toBe('Daily Feed');
  });

  test('the feed scrolls inside its band: a RecyclerView marked scrollable, rows clipped to it in the tree and in the picture', async () => {
    const d = await leased('Scroller');
    await d.open();
    waitOutLoading();
    const list = (await d.tree()).find((e) => e.scrollable);
    expect(list).toMatchObject({ class: 'androidx.recyclerview.widget.RecyclerView', bounds: { left: 0, top: 252, right: 1080, bottom: 2340 } });
    await d.swipe([540, 1800], [540, 1000], 400);
    const scrolled = await d.tree();
    const rows = scrolled.filter((e) => e.resource_id === `${FEED}:id/post_row`);
    for (const row of rows) expect(row.bounds.top >= 252 && row.bounds.bottom <= 2340, row.element_id).toBe(true);
    // 800 px up: post_3 (drawn from 1008 to 1260 before) is cut by the band's top edge.
    expect(rows[0]).toMatchObject({ element_id: 'post_3', bounds: { top: 252, bottom: 460 } });
    expect(scrolled.find((e) => e.element_id === 'thumb_3')?.bounds).toEqual({ left: 48, top: 252, right: 228, bottom: 424 });
    expect(scrolled.filter((e) => e.scrollable).map((e) => e.element_id)).toEqual(['scroll_container']);
    const picture = await shot(d.client, d.lease_id);
    // Above the band the toolbar is untouched; the thumbnail shows below the band's top edge.
    expect(near(picture(150, 240), PRIMARY, 24)).toBe(true);
    expect(hex(picture(60, 300))).not.toBe(hex(picture(30, 300)));
    // A tap on the visible part of a clipped row opens the post; a fling scrolls 1.5×; the far end clamps.
    expect((await d.tap({ x: 540, y: 300 }))?.element_id).toBe('post_3');
    await d.key('BACK');
    for (let i = 0; i < 30; i++) await d.swipe([540, 2200], [540, 400], 100);
    const end = (await d.tree()).filter((e) => e.resource_id === `${FEED}:id/post_row`);
    expect(end[end.length - 1]).toMatchObject({ element_id: 'post_149', bounds: { top: 2088, bottom: 2340 } });
  });

  test('"Rate Daily Feed" interrupts every third open, over the screen as it is; "Not now" leaves that screen unchanged', async () => {
    const d = await leased('Nagged');
    await d.open();
    waitOutLoading();
    await d.swipe([540, 1800], [540, 1300], 400);
    const before = await d.tree();
    await d.open();
    expect(await d.tree()).toEqual(before);
    await d.open();
    const dialog = await d.tree();
    expect(dialog.map((e) => e.text).filter(Boolean)).toEqual(['Rate Daily Feed', 'Enjoying Daily Feed? A rating helps other readers find it. It only takes a moment.', 'Not now', 'Rate now']);
    const dimmed = await shot(d.client, d.lease_id);
    expect(near(dimmed(150, 168), PRIMARY, 24)).toBe(false);
    expect(await d.tap({ text: 'Not now' })).toMatchObject({ text: 'Not now' });
    expect(await d.tree()).toEqual(before);
    // close_app does not reset the count: the 4th open starts the app afresh (loading), the 5th
    // brings it back, the 6th interrupts again, over the feed that is still loading.
    expect((await call(d.client, 'app_close', { lease_id: d.lease_id, package: FEED })).isError).toBeFalsy();
    await d.open();
    await d.open();
    expect((await d.tree()).map((e) => e.class)).toEqual(['android.widget.ProgressBar']);
    await d.open();
    expect((await d.tree()).some((e) => e.text === 'Rate Daily Feed')).toBe(true);
    await d.key('BACK');
    expect((await d.tree()).map((e) => e.class)).toEqual(['android.widget.ProgressBar']);
  });

  test('the keyboard covers the sign-in button while a field has focus: taps there type; BACK hides it, the next BACK goes back', async () => {
    const d = await leased('Typist');
    await d.open();
    waitOutLoading();
    await d.tap({ element_id: 'account' });
    const form = await d.tree();
    const button = form.find((e) => e.element_id === 'sign_in_button');
    expect(button).toMatchObject({ text: 'Sign in', clickable: true });
    await d.tap({ element_id: 'email' });
    const covered = await d.tree();
    expect(covered.map((e) => e.element_id)).not.toContain('sign_in_button');
    expect(covered.map((e) => e.element_id)).toEqual(expect.arrayContaining(['email', 'password']));
    const picture = await shot(d.client, d.lease_id);
    expect(near(picture(540, 1560), '#E8EAED')).toBe(true);
    // A tap where the button was drawn lands on the keyboard's space bar.
    expect(await d.tap({ x: button!.center.x, y: button!.center.y })).toBeNull();
    expect((await d.tree()).find((e) => e.element_id === 'email')?.text).toBe(' ');
    await d.key('BACK');
    expect((await d.tree()).find((e) => e.element_id === 'sign_in_button')).toMatchObject({ text: 'Sign in' });
    expect((await d.tree()).find((e) => e.element_id === 'title')?.text).toBe('Sign in');
    await d.key('BACK');
    expect((await d.tree()).find((e) => e.element_id === 'title')?.text).toBe('Daily Feed');
  });

  test("each row opens its own post: the post's page shows that post's headline, byline, photo and comments", async () => {
    const d = await leased('Reader');
    await d.open();
    waitOutLoading();
    const page = async () => Object.fromEntries((await d.tree()).map((e) => [e.element_id, e]));
    await d.tap({ element_id: 'post_2' });
    w.t.clock.advance(1_200);
    const second = await page();
    expect(second.headline?.text).toBe(FEED_POSTS[2]!.title);
    expect(second.byline?.text).toBe(FEED_POSTS[2]!.meta);
    expect(second.hero?.content_desc).toBe(`Photo of ${FEED_POSTS[2]!.subject}`);
    expect(second.comments?.text).toBe(FEED_POSTS[2]!.comments);
    expect(second.body?.text).toContain(FEED_POSTS[2]!.subject);
    const secondPicture = await shot(d.client, d.lease_id);
    await d.key('BACK');
    await d.tap({ element_id: 'post_1' });
    expect((await page()).headline?.text).toBe(FEED_POSTS[1]!.title);
    // Saving keeps the post the row opened; the two posts' pages are different pictures.
    await d.tap({ text: 'Save post' });
    expect((await page()).headline?.text).toBe(FEED_POSTS[1]!.title);
    const firstPicture = await shot(d.client, d.lease_id);
    const headlineBand = (picture: typeof firstPicture) => Array.from({ length: 3 * 240 }, (_, i) => hex(picture(48 + (i % 240) * 4, 930 + Math.floor(i / 240) * 20))).join();
    expect(headlineBand(firstPicture)).not.toBe(headlineBand(secondPicture));
    expect(new Set(FEED_POSTS.map((p) => p.title)).size).toBe(FEED_POSTS.length);
  });

  test('saving a post shows a snackbar that goes by itself; the comment count comes a moment after the post', async () => {
    const d = await leased('Saver');
    await d.open();
    waitOutLoading();
    await d.tap({ element_id: 'post_0' });
    expect((await d.tree()).some((e) => e.element_id === 'comments')).toBe(false);
    w.t.clock.advance(1_200);
    expect((await d.tree()).find((e) => e.element_id === 'comments')?.text).toBe('24 comments · 3 new');
    await d.tap({ text: 'Save post' });
    expect((await d.tree()).find((e) => e.element_id === 'snackbar')?.text).toBe('Post saved to your reading list');
    expect(near((await shot(d.client, d.lease_id))(540, 2058), '#323232')).toBe(true);
    w.t.clock.advance(2_500);
    expect((await d.tree()).some((e) => e.element_id === 'snackbar')).toBe(false);
  });
});
