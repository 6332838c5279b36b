// Arbiter — MIT licence, see LICENSE.
// Types of arbiter.mjs: the laws of chess from Arbiter's C library compiled to WebAssembly.

/** The standard start position. */
export declare const START_FEN: string;

/** A square name, 'a1' .. 'h8'. */
export type Square = string;
export type Color = 'white' | 'black';
export type Rules = 'fide' | 'fide-rapid' | 'fide-blitz' | 'uscf' | 'online' | 'casual';
export type Termination =
  | 'checkmate'
  | 'stalemate'
  | 'insufficient_material'
  | 'dead_position'
  | 'fivefold_repetition'
  | 'seventyfive_moves'
  | 'threefold_repetition'
  | 'fifty_moves'
  | string;

/** What went wrong, in the library's words. */
export declare class ArbiterError extends Error {
  /** The library's status name: 'fen_syntax', 'fen_invalid', 'move_syntax', 'move_illegal',
   * 'move_ambiguous', 'argument', 'no_memory', ... */
  code: string;
  /** For a FEN: the 1-based field and 0-based column of a syntax error (0 and -1 otherwise). */
  field?: number;
  column?: number;
  /** For a FEN: every problem found ('no_white_king', 'opponent_in_check', ...). */
  problems?: string[];
}

export interface Move {
  color: 'w' | 'b';
  from: Square;
  /** The destination as UCI writes it (castling: the king's square, or the rook's in Chess960). */
  to: Square;
  san: string;
  uci: string;
  /** 'q', 'r', 'b' or 'n' for a promotion. */
  promotion?: string;
}

/** A legal move as moves({verbose: true}) lists it. */
export interface VerboseMove extends Move {
  /** The piece moved: 'p', 'n', 'b', 'r', 'q', 'k'. */
  piece: string;
  /** The piece taken, if any. */
  captured?: string;
  capture: boolean;
  enPassant: boolean;
  castling: boolean;
  check: boolean;
}

export interface Piece {
  square: Square;
  type: 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
  color: 'w' | 'b';
}

export interface Outcome {
  result: '1-0' | '0-1' | '1/2-1/2';
  winner: Color | null;
  termination: Termination;
  /** The article of the FIDE Laws the ending rests on ('5.1.1', '9.6.1', ...). */
  article: string;
}

export interface Status {
  turn: Color;
  check: boolean;
  checkmate: boolean;
  stalemate: boolean;
  insufficientMaterial: boolean;
  /** Exact: neither side can ever mate (the library's winnability search). */
  deadPosition: boolean;
  repetitions: number;
  threefold: boolean;
  canClaimThreefold: boolean;
  fivefold: boolean;
  fifty: boolean;
  canClaimFifty: boolean;
  seventyFive: boolean;
  halfmoves: number;
  moveNumber: number;
  ply: number;
  legalMoves: number;
  outcome: Outcome | null;
}

export interface Winnability {
  color: Color;
  verdict: 'winnable' | 'unwinnable' | 'unknown';
  /** 'helpmate', 'material', 'locked_walls', 'game_over', 'fixed_pawns', 'search',
   * 'pawn_lanes', 'pawn_structures' or 'none'. */
  proof: string;
  nodes: number;
  /** A helpmate proving 'winnable', in UCI and in SAN. */
  line: string[];
  lineSan: string[];
}

export interface ChessOptions {
  /** Chess960 (king-takes-rook UCI castling, X-FEN castling letters). */
  chess960?: boolean;
  rules?: Rules;
  /** Accept every problem a FEN may have but a missing or extra king and too many men. */
  lenient?: boolean;
}

export type MoveInput = string | { from: Square; to: Square; promotion?: string };

export declare class Chess {
  /** Throws ArbiterError with the library's message for a FEN it refuses. */
  constructor(fen?: string, options?: ChessOptions);
  /** The Chess960 start numbered n (0..959; 518 is the standard start). */
  static chess960(n: number, options?: { rules?: Rules }): Chess;

  readonly rules: Rules;
  readonly chess960: boolean;

  load(fen: string, options?: ChessOptions): void;
  reset(): void;
  clone(): Chess;
  /** Releases the C memory now (otherwise after garbage collection). */
  free(): void;

  fen(options?: { shredder?: boolean; epd?: boolean; enPassant?: 'legal' | 'always' }): string;
  turn(): 'w' | 'b';
  chess960Number(): number;
  get(square: Square): Piece | null;
  board(): (Piece | null)[][];

  moves(): string[];
  moves(options: { verbose: true; square?: Square }): VerboseMove[];
  moves(options: { verbose?: false; square?: Square }): string[];
  uciMoves(): string[];
  /** chessground's movable.dests. */
  dests(): Map<Square, Square[]>;
  /** chessground's premovable.customDests: the side not to move's moves legal after some reply;
   * every man of that side has an entry ([] when it can have no premove). */
  premoveDests(): Map<Square, Square[]>;
  move(move: MoveInput): Move;
  san(move: MoveInput): string;
  undo(): Move | null;
  history(): string[];
  history(options: { verbose: true }): Move[];

  isCheck(): boolean;
  inCheck(): boolean;
  isCheckmate(): boolean;
  isStalemate(): boolean;
  isInsufficientMaterial(): boolean;
  isDeadPosition(budget?: number): boolean;
  repetitions(): number;
  isThreefoldRepetition(): boolean;
  isFivefoldRepetition(): boolean;
  canClaimThreefold(): boolean;
  canClaimFifty(): boolean;
  canClaimDraw(): boolean;
  isFiftyMoves(): boolean;
  isSeventyFiveMoves(): boolean;
  halfmoves(): number;
  moveNumber(): number;
  outcome(options?: { claimDraw?: boolean }): Outcome | null;
  result(options?: { claimDraw?: boolean }): '1-0' | '0-1' | '1/2-1/2' | '*';
  isGameOver(options?: { claimDraw?: boolean }): boolean;
  isDraw(options?: { claimDraw?: boolean }): boolean;
  status(): Status;
  winnability(color: Color | 'w' | 'b', budget?: number): Winnability;
  perft(depth: number): number;
}

/** The library's names. */
export declare const names: Readonly<{
  terminations: string[];
  proofs: string[];
  verdicts: string[];
  fenProblems: string[];
  rules: Rules[];
}>;
