import { launch } from './browser.mjs';
const ctx = await launch();
const page = ctx.pages()[0];
page.on('console', m => console.log('console:', m.type(), m.text().slice(0, 200)));
page.on('pageerror', e => console.log('pageerror:', e.message));
page.on('requestfinished', r => console.log('req', r.url().slice(0, 150), r.timing().responseEnd.toFixed(0)));
page.on('requestfailed', r => console.log('failed', r.url().slice(0, 150), r.failure()?.errorText));
await page.goto('http://127.0.0.1:8181/rst/');
await page.fill('#password', 'admin');
await page.click('#sign-in');
await page.locator('#switches tbody tr').first().waitFor();
await page.goto('about:blank');
const t0 = Date.now();
await page.goto('http://127.0.0.1:8181/rst/#/switch/leaf9');
for (let i = 0; i < 20; i++) {
  const r = await Promise.race([page.evaluate(() => document.querySelector('main')?.innerText.slice(0, 150)), new Promise(r => setTimeout(() => r('BLOCKED'), 1000))]);
  console.log(Date.now() - t0, JSON.stringify(r));
  await new Promise(r => setTimeout(r, 500));
}
await page.screenshot({ path: '/tmp/ui-dbg.png' });
await ctx.close();
