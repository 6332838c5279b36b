// Arbiter — MIT licence, see LICENSE.
//
// browser.mjs: people at the page, for the browser tests — Debian's chromium driven by
// Playwright (npm `playwright-core`, no browser download), one browser context per person.
// Moves are made as a person makes them: the mouse on the board's squares (a click on the piece
// and one on the square, or a drag), found from where the board is drawn on the screen.  What a
// person sees is read back from the page: the pieces where they are drawn, the texts, the
// attributes the page writes on <body> for tests (data-status, data-ply, data-sent...).  Every
// console error, page error and failed request is kept, and the tests require there be none.

import { chromium } from 'playwright-core';
import { before, after } from 'node:test';
import { existsSync, mkdirSync } from 'node:fs';
import { join as pathJoin } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, cleanup } from './lib.mjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const SHOTS = process.env.ARBITER_SHOTS || fileURLToPath(new URL('../../build/web-shots', import.meta.url));

export async function launch() {
  if (!existsSync(CHROMIUM))
    throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (scripts/deps.sh test)`);
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
    ],
  });
}

// The built page (scripts/web.sh), or ARBITER_WEB.
export const WEB = process.env.ARBITER_WEB || fileURLToPath(new URL('../../web/dist', import.meta.url));

// A test file's server with the page (and `args`) and its browser, started before its tests and
// stopped after them; `use(server, browser)` receives them once started.
export function pageServer(use, args = []) {
  let server, browser;
  before(async () => {
    server = await startServer({ args: ['--static', WEB, ...args] });
    browser = await launch();
    use(server, browser);
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) {
      await server.stop();
      cleanup(server.dir);
    }
  });
}

// The game id of a game page's address (/game/ID/...).
export const gameIdOf = (page) => new URL(page.url()).pathname.split('/')[2];

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };

export class Person {
  constructor(browser, name, viewport = DESKTOP) {
    Object.assign(this, { browser, name, viewport });
    this.problems = [];
    this.forgiven = [];
  }

  async open(url) {
    if (!this.ctx) {
      this.ctx = await this.browser.newContext({
        viewport: this.viewport,
        acceptDownloads: true,
        hasTouch: false,
      });
      this.page = await this.ctx.newPage();
      this.watch(this.page);
    }
    await this.page.goto(url);
    return this;
  }

  // Every problem a page shows is noted (console errors, page errors, failed requests, HTTP
  // errors).
  watch(p) {
    {
      p.on('console', (m) => {
        if (m.type() === 'error') this.problems.push(`console: ${m.text()}`);
      });
      p.on('pageerror', (e) => this.problems.push(`page error: ${e.message}`));
      p.on('requestfailed', (r) => {
        // a download the test saves itself, or a page navigated away from, is not a failure
        if (r.failure() && !/ERR_ABORTED/.test(r.failure().errorText))
          this.problems.push(`request failed: ${r.url()} ${r.failure().errorText}`);
      });
      p.on('response', (r) => {
        if (r.status() >= 400) this.problems.push(`HTTP ${r.status()}: ${r.url()}`);
      });
    }
  }

  async close() {
    if (this.ctx) await this.ctx.close();
  }

  async shot(name) {
    await this.page.screenshot({ path: pathJoin(SHOTS, `${name}.png`) });
  }

  // ---- the lobby ----

  // Makes a game with the lobby's controls, as a person would.  opts: {control: "3+2" (a
  // preset) or {minutes, increment, delay, periods} (custom) or "none", rules: "online",
  // color: "white"|"black"|"random", variant: "standard"|"chess960"|"position", fen}.
  // Answers the three links shown.
  async makeGame(base, opts = {}) {
    await this.open(`${base}/`);
    const p = this.page;
    const control = opts.control ?? '5+3';
    if (typeof control === 'string') {
      await p.click(`button[data-tc="${control}"]`);
    } else {
      await p.click('button[data-tc="custom"]');
      for (const k of ['minutes', 'increment', 'delay', 'periods'])
        if (control[k] !== undefined) await p.fill(`#${k}`, String(control[k]));
    }
    await p.check(`input[name=rules][value="${opts.rules ?? 'online'}"]`);
    await p.click(`#colors button[data-color="${opts.color ?? 'white'}"]`);
    if (opts.fen) {
      await p.click('#variants button[data-variant="position"]');
      await p.fill('#fen', opts.fen);
    } else if (opts.variant) {
      await p.click(`#variants button[data-variant="${opts.variant}"]`);
    }
    await p.click('#make');
    await p.waitForSelector('#made:not(.hidden)');
    return {
      you: await p.inputValue('#you'),
      opponent: await p.inputValue('#opponent'),
      spectator: await p.inputValue('#spectator'),
    };
  }

  // Opens the seat's own link from the lobby (the "Open" button): in a new tab, which becomes
  // this person's page; the lobby's tab, with the links, stays open as this.lobby.
  async openSeat() {
    const [tab] = await Promise.all([this.ctx.waitForEvent('page'), this.page.click('#open-you')]);
    this.watch(tab);
    this.lobby = this.page;
    this.page = tab;
    await tab.waitForSelector('cg-board');
  }

  // ---- the board, as drawn ----

  // The centre of a square on the screen.
  async square(sq) {
    const p = this.page;
    const box = await p.locator('cg-board').boundingBox();
    const black = await p.locator('#board').evaluate((el) => el.classList.contains('orientation-black'));
    const file = sq.charCodeAt(0) - 97, rank = Number(sq[1]) - 1;
    const col = black ? 7 - file : file, row = black ? rank : 7 - rank;
    return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
  }

  // A move by two clicks: the piece, then the square.
  async clickMove(from, to) {
    const a = await this.square(from), b = await this.square(to);
    await this.page.mouse.click(a.x, a.y);
    await this.page.mouse.click(b.x, b.y);
  }

  // A move by dragging the piece to the square.
  async dragMove(from, to) {
    const a = await this.square(from), b = await this.square(to);
    const m = this.page.mouse;
    await m.move(a.x, a.y);
    await m.down();
    await m.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
    await m.move(b.x, b.y, { steps: 4 });
    await m.up();
  }

  async rightClick(sq) {
    const a = await this.square(sq);
    await this.page.mouse.click(a.x, a.y, { button: 'right' });
  }

  // The pieces where the board draws them, {e1: "white king", ...}, once no piece is moving
  // (pieces being taken off the board and the drag ghost are left out).
  async pieces() {
    for (let i = 0; ; i++) {
      const got = await this.page.evaluate(() => {
        const board = document.querySelector('#board cg-board');
        if (board.querySelector('piece.anim, piece.dragging')) return null; // still moving
        const box = board.getBoundingClientRect();
        const black = document.querySelector('#board').classList.contains('orientation-black');
        const out = {};
        for (const el of board.querySelectorAll('piece')) {
          if (el.classList.contains('fading') || el.classList.contains('ghost') || el.style.display === 'none') continue;
          const r = el.getBoundingClientRect();
          const col = Math.floor(((r.left + r.width / 2 - box.left) / box.width) * 8);
          const row = Math.floor(((r.top + r.height / 2 - box.top) / box.height) * 8);
          const file = black ? 7 - col : col, rank = black ? row : 7 - row;
          const colour = el.classList.contains('white') ? 'white' : 'black';
          const role = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'].find((x) => el.classList.contains(x));
          out[String.fromCharCode(97 + file) + (rank + 1)] = `${colour} ${role}`;
        }
        return out;
      });
      if (got) return got;
      if (i > 100) throw new Error(`${this.name}: the board's pieces never stopped moving`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  // Waits until the board shows these pieces on these squares (null: the square empty).
  async expectPieces(want, timeout = 3000) {
    const end = Date.now() + timeout;
    let got;
    for (;;) {
      got = await this.pieces();
      if (Object.entries(want).every(([sq, pc]) => (got[sq] ?? null) === pc)) return got;
      if (Date.now() > end)
        throw new Error(`${this.name}: wanted ${JSON.stringify(want)}, the board shows ${JSON.stringify(got)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  // ---- what the page says ----

  data(key) {
    return this.page.evaluate((k) => document.body.dataset[k] ?? null, key);
  }

  async sent() {
    return Number((await this.data('sent')) ?? 0);
  }

  waitData(key, value, timeout = 5000) {
    return this.page.waitForFunction(
      ([k, v]) => document.body.dataset[k] === v, [key, String(value)], { timeout });
  }

  waitPly(n, timeout) {
    return this.waitData('ply', n, timeout);
  }

  // How many elements matching the selector are shown (chessground hides the squares it no
  // longer needs rather than removing them).
  shown(selector) {
    return this.page.evaluate(
      (sel) => [...document.querySelectorAll(sel)].filter((e) => e.style.display !== 'none').length, selector);
  }

  // Waits until n elements matching the selector are shown (chessground draws at the next
  // frame).
  async waitCount(selector, n, timeout = 3000) {
    await this.page.waitForFunction(
      ([sel, k]) => [...document.querySelectorAll(sel)].filter((e) => e.style.display !== 'none').length === k,
      [selector, n], { timeout },
    ).catch(async () => {
      throw new Error(`${this.name}: ${n} of ${selector} wanted, ${await this.shown(selector)} shown`);
    });
  }

  text(selector) {
    return this.page.locator(selector).innerText();
  }

  // The game's end as the status box says it: {result, reason}.
  async banner(timeout = 5000) {
    await this.waitData('status', 'over', timeout);
    return {
      result: await this.text('#status .result'),
      reason: (await this.text('#status')).split('\n').slice(1).join(' ').trim(),
    };
  }

  // From now to the end of the test, the problems matching re are ones the test causes on purpose
  // (the browser's own console line for a WebSocket refused while the server is down): they are
  // dropped when the page is checked, including those the browser reports late.
  forgive(re) {
    this.forgiven.push(re);
  }

  // The test stops the server on purpose: a reconnection attempt refused, or the page's icon
  // asked for while it is away (refused) or at the instant it dies (reset), is chromium saying so,
  // not a fault of the page. Any other request that fails is still reported by its address.
  forgiveOutage() {
    this.forgive(/WebSocket connection to '.*' failed: .*ERR_CONNECTION_(REFUSED|RESET)/);
    this.forgive(/favicon\.svg net::ERR_CONNECTION_(REFUSED|RESET)/);
    this.forgive(/^console: Failed to load resource: net::ERR_CONNECTION_(REFUSED|RESET)$/);
  }

  // Throws with every console error, page error and failed request seen.
  assertClean() {
    this.problems = this.problems.filter((m) => !this.forgiven.some((re) => re.test(m)));
    if (this.problems.length) throw new Error(`${this.name}'s page: ${this.problems.join('; ')}`);
  }
}

// Two people at one new game: the first makes it in the lobby and opens their seat, the second
// opens the link sent to them.  opts as Person.makeGame; viewports {a, b}.
export async function twoAtBoard(browser, base, opts = {}, viewports = {}) {
  const a = new Person(browser, 'A', viewports.a);
  const links = await a.makeGame(base, opts);
  await a.openSeat();
  const b = new Person(browser, 'B', viewports.b);
  await b.open(links.opponent);
  await b.page.waitForSelector('cg-board');
  await a.waitData('status', 'ongoing');
  await b.waitData('status', 'ongoing');
  const seatA = await a.data('seat');
  const [white, black] = seatA === 'white' ? [a, b] : [b, a];
  white.name = 'White';
  black.name = 'Black';
  return { a, b, white, black, links };
}

// Plays moves alternately by clicking, each one waited for on both pages.
export async function playClicks(white, black, moves) {
  let ply = Number(await white.data('ply'));
  let turn = (await white.data('turn')) === 'white' ? white : black;
  for (const uci of moves) {
    await turn.clickMove(uci.slice(0, 2), uci.slice(2, 4));
    ply++;
    await white.waitPly(ply);
    await black.waitPly(ply);
    turn = turn === white ? black : white;
  }
}

// A scene of a test: every person met in it (meet(...people) answers the first) has a
// screenshot of their last state taken and their page checked for errors at the end, whatever
// happened, then closed.
export async function scene(name, body) {
  const met = [];
  const meet = (...ps) => {
    met.push(...ps);
    return ps[0];
  };
  try {
    await body(meet);
  } finally {
    for (const p of met) if (p.page) await p.shot(`${name}-${p.name}`).catch(() => {});
  }
  for (const p of met) p.assertClean();
  for (const p of met) await p.close();
}
