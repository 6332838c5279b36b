// Arbiter's page — GPL-3.0-or-later, see /source.html.
//
// board.js: the board (chessground) as the game page uses it — a position with the legal
// destinations of the seat on move (the server's, or the rules module's on the analysis board
// and after a puzzle), the last move and check highlighted, premoves set and cancelled (a right
// click cancels) with their destinations when the page knows them, and the promotion picker.
// It reports moves and premoves; it decides nothing.

import { Chessground } from '/vendor/chessground.min.js';

const ROLES = ['queen', 'knight', 'rook', 'bishop'];
const LETTER = { queen: 'q', knight: 'n', rook: 'r', bishop: 'b' };

export class Board {
  // handlers: move(uci), premove(uci), unpremove()
  constructor(el, handlers) {
    this.el = el;
    this.handlers = handlers;
    // premoves the page itself took off the board (played or dropped by the server): their
    // "unset" events, which chessground sends a moment later, are not the player's cancels
    this.silent = 0;
    this.cg = Chessground(el, {
      coordinates: true,
      autoCastle: true,
      movable: {
        free: false,
        showDests: true,
        rookCastle: true,
        events: { after: (orig, dest) => this.moved(orig, dest) },
      },
      premovable: {
        enabled: true,
        showDests: true,
        castle: true,
        events: {
          set: (orig, dest) => this.handlers.premove(orig + dest + this.promotes(orig, dest, true)),
          unset: () => {
            if (this.silent > 0) this.silent--;
            else this.handlers.unpremove();
          },
        },
      },
      draggable: { enabled: true, showGhost: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 150 },
      drawable: { enabled: true },
    });
    // a right click cancels the premove (caught before chessground, which would start drawing
    // a circle with the same button)
    el.addEventListener(
      'mousedown',
      (e) => {
        if (e.button !== 2 || !this.cg.state.premovable.current) return;
        e.stopPropagation();
        e.preventDefault();
        this.cg.cancelPremove();
      },
      true,
    );
    el.addEventListener('contextmenu', (e) => e.preventDefault());
  }

  // The pawn reaching the last rank: "" when not a promotion, "q" for a premove (a premove's
  // piece is a queen), "?" when the player must choose.
  promotes(orig, dest, premove) {
    const piece = this.cg.state.pieces.get(premove ? orig : dest);
    if (!piece || piece.role !== 'pawn' || (dest[1] !== '8' && dest[1] !== '1')) return '';
    return premove ? 'q' : '?';
  }

  moved(orig, dest) {
    if (this.promotes(orig, dest, false) !== '?') return this.handlers.move(orig + dest);
    if (this.autoQueen) return this.handlers.move(orig + dest + 'q');
    this.pick(this.cg.state.pieces.get(dest).color, (role) => {
      if (role) this.handlers.move(orig + dest + LETTER[role]);
      else this.handlers.takeBack();
    });
  }

  // The promotion picker: four pieces of the mover's colour; Escape or a click outside takes
  // the move back.
  pick(color, done) {
    const overlay = document.getElementById('promotion');
    const box = document.getElementById('promo-pieces');
    box.replaceChildren();
    const close = (role) => {
      overlay.classList.add('hidden');
      overlay.onclick = null;
      document.removeEventListener('keydown', esc);
      done(role);
    };
    const esc = (e) => {
      if (e.key === 'Escape') close(null);
    };
    for (const role of ROLES) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `cg-wrap promote-${role}`;
      b.setAttribute('aria-label', role);
      b.dataset.role = role;
      // the piece itself, drawn by chessground's CSS
      const p = document.createElement('piece');
      p.className = `${color} ${role}`;
      b.append(p);
      b.addEventListener('click', (e) => {
        e.stopPropagation();
        close(role);
      });
      box.append(b);
    }
    overlay.onclick = () => close(null);
    document.addEventListener('keydown', esc);
    overlay.classList.remove('hidden');
  }

  // Shows a position.  view: {fen, turn, lastMove: "e2e4"|null, check, orientation,
  // movable: seat colour or undefined, dests: {"e2": "e3e4"} or undefined, premoves,
  // premoveDests: a Map of the premoves' destinations (rules.js) or undefined (chessground
  // then guesses them from the pieces' moves), viewOnly}
  show(v) {
    const dests = new Map();
    for (const [from, to] of Object.entries(v.dests || {})) dests.set(from, to.match(/../g));
    // chessground binds the mouse to a board drawn while it is not view-only, and draws the
    // board anew when the orientation changes: a board that was view-only (a position looked
    // back at, a pause, a flip meanwhile) is drawn again when it takes moves again
    const wasViewOnly = this.cg.state.viewOnly;
    this.cg.set({
      fen: v.fen.split(' ')[0],
      turnColor: v.turn,
      orientation: v.orientation,
      lastMove: v.lastMove ? [v.lastMove.slice(0, 2), v.lastMove.slice(2, 4)] : undefined,
      check: v.check ? v.turn : false,
      viewOnly: v.viewOnly,
      movable: { color: v.movable, dests },
      premovable: { enabled: v.premoves, customDests: v.premoveDests },
    });
    if (wasViewOnly && !v.viewOnly) this.cg.redrawAll();
  }

  // Coordinates on the board's edge, or none.
  setCoordinates(on) {
    if (this.cg.state.coordinates === on) return;
    this.cg.set({ coordinates: on });
    this.cg.redrawAll();
  }

  // Forgets a premove the page knows is gone (played or dropped by the server).
  clearPremove() {
    if (!this.cg.state.premovable.current) return;
    this.silent++;
    this.cg.cancelPremove();
  }

  set autoQueen(on) {
    this.queen = on;
  }

  get autoQueen() {
    return this.queen;
  }
}
