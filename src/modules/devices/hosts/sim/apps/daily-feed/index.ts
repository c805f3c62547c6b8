// Daily Feed (`com.example.feed`), the second demo app (decisions.md §15), installed by default
// beside Corner Shop: it behaves as real apps do. The feed of 150 posts loads for 0.5–2.5 s
// each time it is entered, then scrolls in the band under its toolbar; a post's comment count
// comes a moment after the post; saving a post shows a snackbar that goes by itself; a "Rate
// Daily Feed" dialog interrupts every third open; the sign-in button sits where the keyboard
// covers it while a field has focus. Written as code only because the feed is long: the
// result is an ordinary app description, checked like any other.
import type { SimApp, SimElement } from '../../app-schema.js';
import { FEED_POSTS } from './posts.js';

export const DAILY_FEED_PACKAGE = 'com.example.feed';
const rid = (id: string) => `${DAILY_FEED_PACKAGE}:id/${id}`;
const activity = (name: string) => `${DAILY_FEED_PACKAGE}.${name}`;

type Bounds = SimElement['bounds'];
const box = (left: number, top: number, right: number, bottom: number): Bounds => ({ left, top, right, bottom });

function text(id: string, value: string, resourceId: string, bounds: Bounds, extra: Partial<SimElement> = {}): SimElement {
  return { id, class: 'android.widget.TextView', text: value, resource_id: resourceId, content_desc: '', bounds, clickable: false, editable: false, ...extra };
}

function toolbar(title: string, up: boolean): SimElement[] {
  return [
    { id: 'toolbar', class: 'android.view.ViewGroup', text: '', resource_id: rid('toolbar'), content_desc: '', bounds: box(0, 84, 1080, 252), clickable: false, editable: false },
    ...(up ? [{ id: 'navigate_up', class: 'android.widget.ImageButton', text: '', resource_id: '', content_desc: 'Navigate up', bounds: box(21, 105, 147, 231), clickable: true, editable: false, to: 'back' }] : []),
    text('title', title, rid('title'), box(up ? 168 : 48, 126, 820, 210)),
  ];
}

const ROW_TOP = 252;
const ROW_HEIGHT = 252;

/** One post of the feed: the whole row is the tap target, over its picture, headline and byline. */
function postRow(i: number): SimElement[] {
  const top = ROW_TOP + i * ROW_HEIGHT;
  const post = FEED_POSTS[i];
  return [
    // The row opens the one post screen with its own post, as a list passes its item to the page it starts.
    { id: `post_${i}`, class: 'android.view.ViewGroup', text: '', resource_id: rid('post_row'), content_desc: '', bounds: box(0, top, 1080, top + ROW_HEIGHT), clickable: true, editable: false, to: 'post', sets: { 'post.headline': post.title, 'post.byline': post.meta, 'post.subject': post.subject, 'post.comments': post.comments } },
    { id: `thumb_${i}`, class: 'android.widget.ImageView', text: '', resource_id: rid('post_thumb'), content_desc: `Photo of ${post.subject}`, bounds: box(48, top + 36, 228, top + 216), clickable: false, editable: false },
    text(`headline_${i}`, post.title, rid('post_title'), box(264, top + 44, 1032, top + 124)),
    text(`meta_${i}`, post.meta, rid('post_meta'), box(264, top + 140, 1032, top + 196)),
  ];
}

const feed: SimApp['screens'][number] = {
  id: 'feed',
  title: 'Daily Feed',
  activity: activity('FeedActivity'),
  loading_ms: { min: 500, max: 2500 },
  scroll: { top: ROW_TOP, bottom: 2340 },
  elements: [
    ...toolbar('Daily Feed', false),
    { id: 'account', class: 'android.widget.ImageButton', text: '', resource_id: rid('account'), content_desc: 'Account', bounds: box(912, 105, 1038, 231), clickable: true, editable: false, to: 'sign_in' },
    ...FEED_POSTS.flatMap((_, i) => postRow(i)),
  ],
};

const FIRST = FEED_POSTS[0];
/** The post's own words, set by the row that opened it (the first post's until a row has). */
const shown = (field: 'headline' | 'byline' | 'subject' | 'comments', first: string) => `{post.${field}|${first}}`;

function postScreen(id: string, saved: boolean): SimApp['screens'][number] {
  return {
    id,
    title: 'Post',
    activity: activity('PostActivity'),
    elements: [
      ...toolbar('Post', true),
      { id: 'hero', class: 'android.widget.ImageView', text: '', resource_id: rid('hero'), content_desc: `Photo of ${shown('subject', FIRST.subject)}`, bounds: box(0, 252, 1080, 852), clickable: false, editable: false },
      text('headline', shown('headline', FIRST.title), rid('headline'), box(48, 900, 1032, 1020)),
      text('byline', shown('byline', FIRST.meta), rid('post_meta'), box(48, 1044, 1032, 1104)),
      text(
        'body',
        `We spent a week with ${shown('subject', FIRST.subject)}: the people who keep it going, the early mornings and the late nights, and what the neighbourhood would lose without it. Most of them have done this for years, and few had been asked about it before.`,
        rid('body'),
        box(48, 1140, 1032, 1800),
      ),
      // The comment count is fetched after the post: it shows a moment later (the same kind of line as the byline).
      text('comments', shown('comments', FIRST.comments), rid('post_meta'), box(48, 1830, 1032, 1890), { appear_after_ms: 1200 }),
      saved
        ? { id: 'save', class: 'android.widget.Button', text: 'Saved', resource_id: rid('save'), content_desc: '', bounds: box(48, 2169, 1032, 2313), clickable: false, editable: false }
        : { id: 'save', class: 'android.widget.Button', text: 'Save post', resource_id: rid('save'), content_desc: '', bounds: box(48, 2169, 1032, 2313), clickable: true, editable: false, to: 'post_saved' },
      ...(saved ? [text('snackbar', 'Post saved to your reading list', 'com.google.android.material:id/snackbar_text', box(48, 1986, 1032, 2130), { hide_after_ms: 2500 })] : []),
    ],
  };
}

const rate: SimApp['screens'][number] = {
  id: 'rate',
  title: 'Rate Daily Feed',
  activity: activity('FeedActivity'),
  elements: [
    { id: 'panel', class: 'android.widget.FrameLayout', text: '', resource_id: 'android:id/parentPanel', content_desc: '', bounds: box(84, 820, 996, 1400), clickable: false, editable: false },
    text('dialog_title', 'Rate Daily Feed', 'android:id/alertTitle', box(147, 883, 933, 983)),
    text('message', 'Enjoying Daily Feed? A rating helps other readers find it. It only takes a moment.', 'android:id/message', box(147, 1003, 933, 1213)),
    { id: 'button2', class: 'android.widget.Button', text: 'Not now', resource_id: 'android:id/button2', content_desc: '', bounds: box(380, 1253, 650, 1379), clickable: true, editable: false, to: 'back' },
    { id: 'button1', class: 'android.widget.Button', text: 'Rate now', resource_id: 'android:id/button1', content_desc: '', bounds: box(670, 1253, 933, 1379), clickable: true, editable: false, to: 'back' },
  ],
};

const field = (id: string, hint: string, top: number): SimElement => ({ id, class: 'android.widget.EditText', text: hint, resource_id: rid(id), content_desc: '', bounds: box(48, top, 1032, top + 168), clickable: true, editable: true });

const signIn: SimApp['screens'][number] = {
  id: 'sign_in',
  title: 'Sign in',
  activity: activity('SignInActivity'),
  elements: [
    ...toolbar('Sign in', true),
    text('heading', 'Welcome back', rid('heading'), box(48, 320, 1032, 440)),
    text('intro', 'Sign in to save posts and pick up where you left off on any device.', rid('intro'), box(48, 460, 1032, 640)),
    field('email', 'Email', 680),
    field('password', 'Password', 884),
    // Low on the screen, as many sign-in pages put it: the keyboard covers it while a field has focus.
    { id: 'sign_in_button', class: 'android.widget.Button', text: 'Sign in', resource_id: rid('sign_in_button'), content_desc: '', bounds: box(48, 2040, 1032, 2184), clickable: true, editable: false, to: 'signed_in' },
    text('new_here', 'New here? Accounts are free.', rid('new_here'), box(48, 2210, 1032, 2290)),
  ],
};

const signedIn: SimApp['screens'][number] = {
  id: 'signed_in',
  title: 'Account',
  activity: activity('AccountActivity'),
  elements: [
    ...toolbar('Account', true),
    { id: 'avatar', class: 'android.widget.ImageView', text: '', resource_id: rid('avatar'), content_desc: 'Profile picture', bounds: box(420, 340, 660, 580), clickable: false, editable: false },
    text('signed_in_as', 'Signed in as {sign_in.email|a reader}', rid('signed_in_as'), box(48, 620, 1032, 740)),
    text('sync', 'Your saved posts now follow you to every device you sign in on.', rid('sync'), box(48, 760, 1032, 940)),
    { id: 'to_feed', class: 'android.widget.Button', text: 'Back to the feed', resource_id: rid('to_feed'), content_desc: '', bounds: box(48, 2169, 1032, 2313), clickable: true, editable: false, to: 'feed' },
  ],
};

export const dailyFeed: SimApp = {
  package: DAILY_FEED_PACKAGE,
  label: 'Daily Feed',
  version_name: '3.2.0',
  version_code: 320,
  interrupts: [{ screen: 'rate', every_opens: 3 }],
  screens: [feed, postScreen('post', false), postScreen('post_saved', true), rate, signIn, signedIn],
};
