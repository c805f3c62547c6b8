// @ts-check
// The authoring benchmark's tasks on the simulated apps: the demo app (Corner Shop) and the
// generated 63-screen Field Guide. Each has a goal in plain words and a check of the device's
// FINAL state, read from the simulator's own record (foreground app, screen stacks, fields and
// switches), as AndroidWorld checks its tasks: what the screen ended as, not what the agent said.
// `macro` is the correct script, which only the scripted model uses (it replays it); `firstTry`
// a wrong first script it runs before, to exercise the fix loop; `scriptedMacro` a script that
// misses part of the goal, so the scripted run shows an honest failure.

export const SHOP = 'com.example.shop';
export const GUIDE = 'com.example.fieldguide';

/** @typedef {{ foreground: string, tasks: Record<string, string[]>, fields: Record<string, string> }} SimState */
/** @typedef {(s: SimState) => string | null} Check a reason it failed, or null */
/**
 * @typedef {object} Task
 * @property {string} id
 * @property {string} app the package the task works in
 * @property {string} goal
 * @property {Check} check
 * @property {string} macro
 * @property {string} [firstTry]
 * @property {string} [scriptedMacro]
 */

/** @param {SimState} s @param {string} pkg */
const stack = (s, pkg) => s.tasks[pkg] ?? [];
/** @param {SimState} s @param {string} pkg */
const top = (s, pkg) => stack(s, pkg).at(-1);

/** All of them must hold; the first that does not is the reason. @param {...Check} checks @returns {Check} */
const all = (...checks) => (s) => checks.map((c) => c(s)).find((r) => r !== null) ?? null;
/** @param {string} pkg @returns {Check} */
const inFront = (pkg) => (s) => (s.foreground === pkg ? null : `${s.foreground} is in front, not ${pkg}`);
/** @param {string} pkg @param {string} screen @returns {Check} */
const onScreen = (pkg, screen) => (s) => (top(s, pkg) === screen ? null : `the screen is ${top(s, pkg) ?? 'none'}, not ${screen}`);
/** @param {string} pkg @param {string} screen @returns {Check} */
const passedThrough = (pkg, screen) => (s) => (stack(s, pkg).includes(screen) ? null : `${screen} is not on the way back (${stack(s, pkg).join(' > ')})`);
/** @param {string} pkg @param {string} screen @param {string} element @param {string} value @returns {Check} */
const field = (pkg, screen, element, value) => (s) => {
  const got = s.fields[`${pkg}/${screen}/${element}`];
  return got === value ? null : `${screen}/${element} is ${JSON.stringify(got ?? null)}, not ${JSON.stringify(value)}`;
};

/** Every script starts the app afresh, so a run after a failed one does not begin mid-way. @param {string} pkg */
const head = (pkg) => `import svc_device as d\nd.close_app("${pkg}")\nd.open_app("${pkg}")\n`;
/** @param {string} pkg @param {string[]} lines */
const script = (pkg, lines) => `${head(pkg)}${lines.join('\n')}\nd.log("done")\n`;
/** @param {string} id @param {string} text */
const typeInto = (id, text) => [`d.tap_element("${id}")`, `d.type_text(${JSON.stringify(text)})`];
/** @param {...string} labels */
const taps = (...labels) => labels.map((l) => `d.tap_text(${JSON.stringify(l)})`);

/** @param {string} product @param {string} row */
const cartTask = (product, row) => ({
  id: `shop-cart-${row.replace('row_', '')}`,
  app: SHOP,
  goal: `Open the Corner Shop and add the ${product} to the cart.`,
  check: all(inFront(SHOP), onScreen(SHOP, 'added_to_cart'), passedThrough(SHOP, `product_${row.replace('row_', '')}`)),
  macro: script(SHOP, [`d.tap_element("${row}")`, 'd.tap_text("Add to cart")']),
});

/** @param {string} label @param {string} id @param {'on' | 'off'} to */
const shopSwitch = (label, id, to) => ({
  id: `shop-${id}-${to}`,
  app: SHOP,
  goal: `In the Corner Shop's settings, turn ${to} "${label}".`,
  check: all(onScreen(SHOP, 'settings'), field(SHOP, 'settings', id, to)),
  macro: script(SHOP, ['d.tap_element("settings")', `d.tap_element("${id}")`]),
});

/** @param {string} label @param {string} id @param {string} screen @param {string[]} path */
const guideSwitch = (label, id, screen, path) => ({
  id: `guide-${id}-on`,
  app: GUIDE,
  goal: `In the Field Guide, go to ${path.join(' > ')} and turn on "${label}".`,
  check: all(onScreen(GUIDE, screen), field(GUIDE, screen, id, 'on')),
  macro: script(GUIDE, [...taps(...path), `d.tap_element("${id}")`]),
});

/** @type {Task[]} */
export const TASKS = [
  { ...cartTask('espresso beans', 'row_beans'), firstTry: script(SHOP, ['d.tap_element("row_espresso")', 'd.tap_text("Add to cart")']) },
  cartTask('mug', 'row_mug'),
  cartTask('kettle', 'row_kettle'),
  {
    id: 'shop-checkout',
    app: SHOP,
    goal: 'In the Corner Shop, add the espresso beans to the cart, check out with the name Ada Lovelace, street 12 Market Street, city Leeds, postcode LS1 4AP, phone 0113 496 0000, and place the order.',
    check: all(onScreen(SHOP, 'order_placed'), field(SHOP, 'checkout', 'full_name', 'Ada Lovelace'), field(SHOP, 'checkout', 'city', 'Leeds'), field(SHOP, 'checkout', 'postcode', 'LS1 4AP')),
    macro: script(SHOP, ['d.tap_element("row_beans")', 'd.tap_text("Add to cart")', 'd.tap_text("Check out")', ...typeInto('full_name', 'Ada Lovelace'), ...typeInto('street', '12 Market Street'), ...typeInto('city', 'Leeds'), ...typeInto('postcode', 'LS1 4AP'), ...typeInto('phone', '0113 496 0000'), 'd.tap_text("Place order")']),
  },
  {
    id: 'shop-checkout-city',
    app: SHOP,
    goal: 'Open the Corner Shop checkout from the catalogue and enter Leeds as the city, without placing the order.',
    check: all(onScreen(SHOP, 'checkout'), field(SHOP, 'checkout', 'city', 'Leeds')),
    macro: script(SHOP, ['d.tap_element("checkout")', ...typeInto('city', 'Leeds')]),
  },
  shopSwitch('Weekly offers', 'offers', 'on'),
  shopSwitch('Order updates', 'order_updates', 'off'),
  { ...shopSwitch('Save payment details', 'save_card', 'on'), firstTry: script(SHOP, ['d.tap_element("settings")', 'd.tap_element("save_payment")']) },
  {
    id: 'shop-two-switches',
    app: SHOP,
    goal: 'In the Corner Shop\'s settings, turn off "Order updates" and turn on "Weekly offers".',
    check: all(onScreen(SHOP, 'settings'), field(SHOP, 'settings', 'order_updates', 'off'), field(SHOP, 'settings', 'offers', 'on')),
    macro: script(SHOP, ['d.tap_element("settings")', 'd.tap_element("order_updates")', 'd.tap_element("offers")']),
    // The scripted model's deliberate miss: it turns off order updates and forgets the offers.
    scriptedMacro: script(SHOP, ['d.tap_element("settings")', 'd.tap_element("order_updates")']),
  },
  {
    id: 'shop-sign-in',
    app: SHOP,
    goal: 'Sign in to the Corner Shop with the email ada@example.com and the password "river stone 42".',
    check: all(onScreen(SHOP, 'account'), field(SHOP, 'sign_in', 'email', 'ada@example.com')),
    macro: script(SHOP, ['d.tap_element("account")', ...typeInto('email', 'ada@example.com'), ...typeInto('password', 'river stone 42'), 'd.tap_element("sign_in")']),
  },
  guideSwitch('Weekly digest', 'weekly_digest', 'notifications', ['Settings', 'Notifications']),
  guideSwitch('New messages', 'new_messages', 'notifications', ['Settings', 'Notifications']),
  guideSwitch('Share location', 'share_location', 'privacy', ['Settings', 'Privacy']),
  {
    id: 'guide-profile-name',
    app: GUIDE,
    goal: 'In the Field Guide, open Settings > Profile and set the name to Ada Lovelace.',
    check: all(onScreen(GUIDE, 'profile'), field(GUIDE, 'profile', 'name', 'Ada Lovelace')),
    macro: script(GUIDE, [...taps('Settings', 'Profile'), ...typeInto('name', 'Ada Lovelace')]),
  },
  {
    id: 'guide-search',
    app: GUIDE,
    goal: 'Search the Field Guide for "tides" and show the results.',
    check: all(onScreen(GUIDE, 'search_results'), field(GUIDE, 'search', 'search_the_guide', 'tides')),
    macro: script(GUIDE, [...taps('Search'), ...typeInto('search_the_guide', 'tides'), ...taps('Show results')]),
  },
  {
    id: 'guide-compose',
    app: GUIDE,
    goal: 'In the Field Guide inbox, write a new message to field-team@example.com with the subject "Survey done" and send it.',
    check: all(onScreen(GUIDE, 'sent_dialog'), field(GUIDE, 'compose', 'to', 'field-team@example.com'), field(GUIDE, 'compose', 'subject', 'Survey done')),
    macro: script(GUIDE, [...taps('Inbox', 'Compose'), ...typeInto('to', 'field-team@example.com'), ...typeInto('subject', 'Survey done'), ...taps('Send')]),
  },
  {
    id: 'guide-task-done',
    app: GUIDE,
    goal: 'In the Field Guide, mark task 2 of project 3 as done.',
    check: all(onScreen(GUIDE, 'task_detail'), passedThrough(GUIDE, 'tasks_3'), field(GUIDE, 'task_detail', 'done', 'on')),
    macro: script(GUIDE, [...taps('Projects', 'Project 3', 'Tasks', 'Task 2'), 'd.tap_element("done")']),
  },
  {
    id: 'guide-note',
    app: GUIDE,
    goal: 'In the Field Guide, open the notes of project 2 and write "Check the tide tables".',
    check: all(onScreen(GUIDE, 'notes_2'), field(GUIDE, 'notes_2', 'note', 'Check the tide tables')),
    macro: script(GUIDE, [...taps('Projects', 'Project 2', 'Notes'), ...typeInto('note', 'Check the tide tables')]),
  },
  {
    id: 'guide-export-report',
    app: GUIDE,
    goal: 'Export report 2 of the Field Guide as a PDF.',
    check: all(onScreen(GUIDE, 'export_done'), passedThrough(GUIDE, 'report_2')),
    macro: script(GUIDE, [...taps('Reports', 'Report 2', 'Export'), 'd.tap_element("button1")']),
  },
  {
    id: 'guide-password',
    app: GUIDE,
    goal: 'Change the Field Guide account password to "correct horse battery".',
    check: all(onScreen(GUIDE, 'password_saved'), field(GUIDE, 'password', 'new_password', 'correct horse battery')),
    macro: script(GUIDE, [...taps('Settings', 'Account', 'Change password'), ...typeInto('new_password', 'correct horse battery'), ...taps('Save password')]),
  },
  {
    id: 'guide-contact',
    app: GUIDE,
    goal: 'Ask the Field Guide\'s help team "How do I export a report?" through the contact form.',
    check: all(onScreen(GUIDE, 'contact_thanks'), field(GUIDE, 'contact', 'your_question', 'How do I export a report?')),
    macro: script(GUIDE, [...taps('Help', 'Contact us'), ...typeInto('your_question', 'How do I export a report?'), ...taps('Send question')]),
  },
  {
    id: 'guide-article',
    app: GUIDE,
    goal: 'Open article 3.2 in the Field Guide library.',
    check: all(inFront(GUIDE), onScreen(GUIDE, 'article_3_2')),
    macro: script(GUIDE, [...taps('Library', 'Category 3', 'Article 3.2')]),
  },
  {
    id: 'guide-licence',
    app: GUIDE,
    goal: 'Show the second licence listed under Settings > About > Licences in the Field Guide.',
    check: all(onScreen(GUIDE, 'licence_detail'), passedThrough(GUIDE, 'licences')),
    macro: script(GUIDE, [...taps('Settings', 'About', 'Licences', 'Licence 2')]),
  },
];
