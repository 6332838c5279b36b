# Arbiter — MIT licence, see LICENSE.
#
# bench/popeye.py: positions in Popeye's input language and Popeye's keys read back, for the
# scripts that measure and check Arbiter's solver against Popeye (bench/solve.py,
# bench/puzzles_popeye.py).  Popeye's stipulations are White's: a Black-to-move position is
# turned over (colours swapped, ranks mirrored) and its keys turned back.


LETTER = {'k': 'K', 'q': 'Q', 'r': 'R', 'b': 'B', 'n': 'S', 'p': 'P'}


def mirror_fen(fen):
    """The same position with the colours swapped and the board turned over (Black to move
    becomes White to move: Popeye's stipulations are White's)."""
    board, turn, castling, ep = fen.split()[:4]
    rows = board.split('/')[::-1]
    board = '/'.join(row.swapcase() for row in rows)
    castling = '-' if castling == '-' else ''.join(sorted(castling.swapcase(), key='KQkq'.index))
    ep = '-' if ep == '-' else ep[0] + str(9 - int(ep[1]))
    return f'{board} {"w" if turn == "b" else "b"} {castling} {ep} 0 1'


def mirror_uci(m):
    return m if m.startswith('O-O') else m[0] + str(9 - int(m[1])) + m[2] + str(9 - int(m[3])) + m[4:]


def popeye_problem(fen, n):
    """Popeye's input for 'the side to move mates in n': pieces (Black to move: the mirrored
    position), castling rights (NoCastling for the kings and rooks on their squares without
    one), en passant."""
    if fen.split()[1] == 'b':
        fen = mirror_fen(fen)
    board, turn, castling, ep = fen.split()[:4]
    white, black = [], []
    rank = 8
    for row in board.split('/'):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            sq = 'abcdefgh'[f] + str(rank)
            (white if ch.isupper() else black).append(LETTER[ch.lower()] + sq)
            f += 1
        rank -= 1
    no_castling = []
    for sq, piece, right in (('e1', 'K', 'KQ'), ('a1', 'R', 'Q'), ('h1', 'R', 'K'),
                             ('e8', 'k', 'kq'), ('a8', 'r', 'q'), ('h8', 'r', 'k')):
        on = (piece.upper() + sq) in (white if piece.isupper() else black)
        if on and not any(c in castling for c in right):
            no_castling.append(sq)
    opts = ['NoBoard']
    if no_castling:
        opts.append('NoCastling ' + ' '.join(no_castling))
    if ep != '-':  # White to move: Black's pawn just went from rank 7 over ep to rank 5
        opts.append(f'EnPassant {ep[0]}7 {ep} {ep[0]}5')
    return (f'Pieces White {" ".join(white)} Black {" ".join(black)}\nStipulation #{n}\n'
            f'Option {" ".join(opts)}\n')


def popeye_keys(output):
    """The keys of each problem in Popeye's output, as (from, to, promotion) in UCI."""
    problems, cur = [], None
    for line in output.splitlines():
        s = line.strip()
        if s.startswith('1.') and s.endswith('!'):
            move = s[2:].split()[0].rstrip('+#!')
            if move.startswith('0-0-0'):
                cur.append('O-O-O')
            elif move.startswith('0-0'):
                cur.append('O-O')
            else:
                m = move.lstrip('KQRBSP')
                frm, to = m[0:2], m[3:5]
                promo = ''
                rest = m[5:]
                if rest.startswith('='):
                    promo = rest[1].lower().replace('s', 'n')
                cur.append(frm + to + promo)
        elif s.startswith('solution finished'):
            problems.append(sorted(cur or []))
            cur = []
        if cur is None:
            cur = []
    return problems


