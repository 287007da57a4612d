/**
 * The installed app's icons (client/public/icons/), rasterised from client/public/favicon.svg by
 * Chromium, so the PNGs always draw what the tab shows. Run after changing the favicon, and commit the
 * files: `npx tsx tools/make-icons.ts`. The maskable one puts the mark inside the middle 80 % circle
 * that launchers may crop to, on a full-bleed square of the mark's own background.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../test/e2e/helpers/browser';

const ROOT = resolve(import.meta.dirname, '..');
const svg = readFileSync(resolve(ROOT, 'client/public/favicon.svg'), 'utf8');
const BACKGROUND = /<rect[^>]*fill="(#[0-9a-f]{6})"/i.exec(svg)?.[1] ?? '#1d2a3a';
const out = resolve(ROOT, 'client/public/icons');
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  const uri = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  const shots: { file: string; size: number; maskable: boolean }[] = [
    { file: 'icon-192.png', size: 192, maskable: false },
    { file: 'icon-512.png', size: 512, maskable: false },
    { file: 'maskable-512.png', size: 512, maskable: true },
  ];
  for (const { file, size, maskable } of shots) {
    await page.setViewportSize({ width: size, height: size });
    const inner = maskable ? Math.round(size * 0.7) : size;
    await page.setContent(
      `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${maskable ? BACKGROUND : 'transparent'}">` +
        `<img src="${uri}" width="${inner}" height="${inner}"></body></html>`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    writeFileSync(resolve(out, file), await page.screenshot({ omitBackground: !maskable, clip: { x: 0, y: 0, width: size, height: size } }));
    console.log(`client/public/icons/${file}`);
  }
} finally {
  await browser.close();
}
