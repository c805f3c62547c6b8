// Webhooks (an endpoint added with its secret shown once, a test event delivered to a real
// HTTPS receiver, the delivery read with payload and answer, a custom event) and proxies
// (imported with per-line errors, checked, assigned, connection info revealed, usage).
import { expect } from 'vitest';
import { checkPage, expectAccessible } from './harness.js';
import { openFromNav, type World } from './world.js';

export async function webhooks(w: World): Promise<void> {
  const { page, receiver } = w;
  await openFromNav(page, 'Webhooks');
  await expect.poll(() => page.getByText('No endpoints yet').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Add endpoint' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill(receiver.url);
  await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill('Order system (staging)');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect.poll(() => dialog.getByTestId('secret-value').innerText()).toMatch(/\S{20,}/);
  await checkPage(page, 'webhook-secret');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /Order system/ });
  await expect.poll(() => row.innerText()).toMatch(/Enabled[\s\S]*\*[\s\S]*All devices[\s\S]*Never/);

  await row.getByRole('button', { name: /^Send test/ }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'webhook.test' }).isVisible()).toBe(true);
  await receiver.waitFor(1, 15_000);
  expect(JSON.parse(receiver.requests[0].body).type).toBe('webhook.test');
  await page.getByRole('button', { name: 'See its delivery' }).click();
  const delivery = page.getByRole('row', { name: /webhook\.test/ });
  await expect.poll(() => delivery.innerText(), { timeout: 15_000 }).toMatch(/succeeded[\s\S]*1[\s\S]*200/);
  await checkPage(page, 'webhook-deliveries');
  await delivery.getByRole('link', { name: 'webhook.test' }).click();
  await expect.poll(() => page.getByLabel('Payload').innerText()).toContain('"webhook.test"');
  expect(await page.getByLabel('Response body').innerText()).toBe('ok');
  await page.getByRole('button', { name: 'Redeliver' }).click();
  await expect.poll(() => page.getByText('Queued again', { exact: false }).isVisible()).toBe(true);
  await receiver.waitFor(2, 15_000);
  await checkPage(page, 'webhook-delivery');

  await openFromNav(page, 'Webhooks');
  await page.getByRole('tab', { name: 'Custom event' }).click();
  await page.getByRole('button', { name: 'Send event' }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'queued 1 delivery' }).isVisible()).toBe(true);
  await receiver.waitFor(3, 15_000);
  expect(JSON.parse(receiver.requests[2].body).type).toBe('custom.order_shipped');
  await checkPage(page, 'webhook-custom-event');
  await page.getByRole('tab', { name: 'Endpoints' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Order system/ }).innerText()).not.toMatch(/Never/);
  await checkPage(page, 'webhooks');
}

export async function proxies(w: World): Promise<void> {
  const { page } = w;
  await openFromNav(page, 'Proxies');
  await expect.poll(() => page.getByText('No proxies yet').isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Import' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Proxies, one a line', exact: true }).fill(['127.0.0.1:9:alice:s3cret-pass', 'socks5://bob:hunter22@127.0.0.1:10', 'not a proxy at all', '127.0.0.1:70000'].join('\n'));
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect.poll(() => dialog.getByText('2 added, 2 refused').isVisible()).toBe(true);
  const refused = await dialog.getByRole('row').allInnerTexts();
  expect(refused.slice(1).map((r) => r.split('\t')[0])).toEqual(['3', '4']);
  await checkPage(page, 'proxies-import');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect.poll(() => page.getByText('1–2 of 2 proxies').isVisible()).toBe(true);

  // A check against a port where nothing listens: progress, then the stored result.
  const first = page.getByRole('row', { name: /127\.0\.0\.1:9\b/ });
  await first.getByRole('button', { name: /^Check now/ }).click();
  await expect.poll(() => first.innerText(), { timeout: 20_000 }).toMatch(/dead/);
  await checkPage(page, 'proxies');

  await page.getByRole('tab', { name: 'Assignments' }).click();
  await page.getByRole('button', { name: 'Assign a proxy' }).first().click();
  await page.getByRole('dialog').getByRole('combobox', { name: 'Device', exact: true }).click();
  await page.getByRole('option', { name: 'Pixel 7' }).click();
  await page.getByRole('dialog').getByRole('combobox', { name: 'Proxy', exact: true }).click();
  await page.getByRole('option', { name: /127\.0\.0\.1:9 / }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Assign' }).click();
  await expect.poll(() => page.getByRole('row', { name: /Pixel 7/ }).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Connection info for Pixel 7' }).click();
  await expect.poll(() => page.getByRole('dialog').innerText()).toMatch(/alice/);
  expect(await page.getByRole('dialog').innerText()).not.toContain('s3cret-pass');
  await page.getByRole('button', { name: 'Reveal password…' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Reveal', exact: true }).click();
  await expect.poll(() => page.getByRole('dialog').innerText()).toContain('s3cret-pass');
  await checkPage(page, 'proxy-connection-info');
  await page.keyboard.press('Escape');

  // Usage the application reported (a session route), shown per proxy, device and group.
  const proxyRows = await w.t.db.kysely.selectFrom('proxies').select('id').orderBy('id').execute();
  const pixel = await w.t.db.kysely.selectFrom('devices').select('id').where('name', '=', 'Pixel 7').executeTakeFirstOrThrow();
  const accepted = await page.evaluate(async (samples) => (await (await fetch('/api/proxy/usage', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ samples }) })).json()) as { accepted: number },
    [{ proxy_id: proxyRows[0].id, device_id: pixel.id, bytes_up: 4_200_000, bytes_down: 38_000_000 }, { proxy_id: proxyRows[1].id, bytes_up: 900_000, bytes_down: 12_500_000 }]);
  expect(accepted).toEqual({ accepted: 2 });
  await page.getByRole('tab', { name: 'Usage' }).click();
  await expect.poll(() => page.getByText('53 MB', { exact: true }).first().isVisible()).toBe(true);
  // Each chart is an SVG image named by its numbers, with the same numbers as a table.
  const byProxy = page.getByRole('img', { name: /By proxy, bytes down and up/ });
  await expect.poll(() => byProxy.getAttribute('aria-labelledby')).toBeTruthy();
  expect(await byProxy.locator('desc').textContent()).toMatch(/127\.0\.0\.1 \(proxy \d+\): 36 MB down, 4\.0 MB up/);
  // Per UTC day: both samples fell on today.
  const today = new Date().toISOString().slice(0, 10);
  expect(await page.getByRole('img', { name: /By day \(UTC\), bytes down and up/ }).locator('desc').textContent()).toContain(`${today}: 48 MB down`);
  await checkPage(page, 'proxies-usage');
  // The second chart on the page is the one per proxy (the first is per day).
  await page.getByRole('button', { name: 'Show as a table' }).nth(1).click();
  await expect.poll(() => page.getByRole('table', { name: /By proxy/ }).getByRole('row').count()).toBe(3);
  await expectAccessible(page, 'proxies-usage with its table');

  // The device's own view names the proxy it goes through.
  await openFromNav(page, 'Devices');
  await page.getByRole('button', { name: 'Open Pixel 7' }).click();
  const drawer = page.getByRole('dialog', { name: 'Pixel 7' });
  await expect.poll(() => drawer.getByText('Rotating session', { exact: false }).or(drawer.getByText('Sticky session', { exact: false })).isVisible()).toBe(true);
  expect(await drawer.innerText()).toMatch(/127\.0\.0\.1:9[\s\S]*dead/);
  expect(new URL(page.url()).search).toMatch(/device=\d+/);
  await expectAccessible(page, 'device drawer');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Open Cloud phone 1' }).click();
  const cloud = page.getByRole('dialog', { name: 'Cloud phone 1' });
  await expect.poll(() => cloud.getByText('This device connects directly, without a proxy.').isVisible()).toBe(true);
  expect(await cloud.innerText()).toMatch(/Cloud device[\s\S]*stopped/);
  await checkPage(page, 'device-cloud');
  await page.keyboard.press('Escape');
  await expect.poll(() => cloud.isVisible()).toBe(false);
}
