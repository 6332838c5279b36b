/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * The umbrella header: include this one.  Layers, lowest first:
 *   common.h   errors, colours, pieces, squares, the 16-bit move
 *   position.h board: position, make/unmake, legal moves, attacks, Polyglot keys, perft
 *   notation.h FEN/EPD, SAN, UCI/LAN
 *   book.h     Polyglot opening books, read in place
 *   epd.h      EPD records: opcodes and operands, moves checked against the position
 *   status.h   check, mate, stalemate, insufficient material, dead position
 *   game.h     a game: history, repetitions, endings, offers, claims, rule sets
 *   clock.h    time controls, the clock, flag-fall verdicts, PGN clock comments
 *   diagram.h  text and SVG diagrams of a position
 *   pgn.h      PGN: streaming reader with full replay, export-format writer
 *   tree.h     PGN: a game as an editable tree of moves; comment commands (%clk, %eval, ...)
 *   referee.h  procedure: a timed game driven by events, decisions, deadlines, its record
 *   otb.h      procedure over the board: touch-move, completed illegal moves, e-boards
 */
#ifndef ARBITER_ARBITER_H
#define ARBITER_ARBITER_H

#include "arbiter/audit.h"
#include "arbiter/book.h"
#include "arbiter/clock.h"
#include "arbiter/common.h"
#include "arbiter/diagnostic.h"
#include "arbiter/diagram.h"
#include "arbiter/endgame.h"
#include "arbiter/epd.h"
#include "arbiter/explain.h"
#include "arbiter/game.h"
#include "arbiter/notation.h"
#include "arbiter/otb.h"
#include "arbiter/pgn.h"
#include "arbiter/position.h"
#include "arbiter/quiz.h"
#include "arbiter/referee.h"
#include "arbiter/solve.h"
#include "arbiter/status.h"
#include "arbiter/train.h"
#include "arbiter/tree.h"

#endif
