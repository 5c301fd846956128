/* The Hard bot's search core: sampled deals of the unseen cards, played out to the end of the
 * hand with the Normal policy at every seat (Expert's: the learned play-out policy).
 *
 * This is app/bots/normal.py's play policy, app/bots/model.py's `step` and app/rules/hearts_core.py's
 * rule primitives, written again in C because the search plays millions of cards a second.
 * tests/bots/test_bots_search_core.py plays thousands of positions through both and requires
 * the same card every time, so a change to one side that is not made to the other fails there
 * (for app/bots/playout_policy.py, tests/bots/test_bots_playout_policy.py).
 *
 * Cards, masks and seats are as in app/rules/cards.py: card = suit * 13 + rank, a set of cards
 * is a 52-bit mask, seats 0..3 play in order s -> (s + 1) & 3.
 *
 * The house rules (app/rules/hearts_rules.py) travel in every position: read from the Python
 * Pos's `rules`, they decide legal plays, what breaks hearts, and how a hand and the match are
 * scored (hearts_core.hand_scores, settle_totals, moon_by_rule; a shooter's choice as
 * normal.choose_moon makes it).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>

typedef uint64_t Mask;

enum { CLUBS, DIAMONDS, HEARTS, SPADES };
#define FULL_DECK ((((Mask)1) << 52) - 1)
#define SUIT_MASK(s) (((Mask)0x1FFF) << (13 * (s)))
#define SUIT_OF(c) ((c) / 13)
#define RANK_OF(c) ((c) % 13)
#define BIT(c) (((Mask)1) << (c))
#define QS (SPADES * 13 + 10)
#define QS_BIT BIT(QS)
#define KS_BIT BIT(QS + 1)
#define AS_BIT BIT(QS + 2)
#define HEART_MASK SUIT_MASK(HEARTS)
#define SPADE_MASK SUIT_MASK(SPADES)
#define POINT_MASK (HEART_MASK | QS_BIT)
#define TWO_OF_CLUBS_BIT BIT(0)
#define JD (DIAMONDS * 13 + 9)
#define JD_BIT BIT(JD)
#define TOTAL_POINTS 26
/* normal.py's MOON_WATCH and HIGH_LEAD_RANK. */
#define MOON_WATCH 6
#define HIGH_LEAD_RANK 10
/* sample_world's attempts before the view is called inconsistent. */
#define DEAL_ATTEMPTS 20

/* hearts_rules.MOON_RULES, in order. */
enum { MOON_ADD, MOON_SUBTRACT, MOON_CHOICE, MOON_SAFE };

typedef struct {
    int queen_breaks;
    int must_break;
    int first_points;
    int jack;  /* 0 or -10 */
    int bonus; /* 0 or -5 */
    int moon;
    int target;
    int perfect;
} Rules;

typedef struct {
    Mask hands[4];
    Mask played;
    int trick[4];
    int ntrick;
    int leader;
    int turn;
    int points[4];
    int voids[4];
    int hearts_broken;
    int tricks_done;
    int jack_taker; /* -1 until the J♦ is taken */
    int won[4];
    Rules rules;
} Pos;

static inline int popcount(Mask m) { return __builtin_popcountll(m); }
static inline int highest(Mask m) { return 63 - __builtin_clzll(m); }
static inline int lowest(Mask m) { return __builtin_ctzll(m); }
static inline Mask below(int c) { return (BIT(c) - 1) & SUIT_MASK(SUIT_OF(c)); }
static inline Mask above(int c) { return ~((BIT(c) << 1) - 1) & SUIT_MASK(SUIT_OF(c)); }

static inline int points_of(Mask cards) {
    return popcount(cards & HEART_MASK) + ((cards & QS_BIT) ? 13 : 0);
}

static Mask legal_mask(Mask hand, int led_suit, int first_trick, int hearts_broken,
                       int first_points) {
    if (led_suit >= 0) {
        Mask follow = hand & SUIT_MASK(led_suit);
        if (follow) return follow;
        if (first_trick && !first_points) return (hand & ~POINT_MASK) ? (hand & ~POINT_MASK) : hand;
        return hand;
    }
    if (first_trick) return hand & TWO_OF_CLUBS_BIT;
    if (hearts_broken) return hand;
    return (hand & ~HEART_MASK) ? (hand & ~HEART_MASK) : hand;
}

static inline Mask legal(const Pos *p, int seat) {
    return legal_mask(p->hands[seat], p->ntrick ? SUIT_OF(p->trick[0]) : -1,
                      p->tricks_done == 0, p->hearts_broken || !p->rules.must_break,
                      p->rules.first_points);
}

/* The index in the open trick of the card winning it. */
static int winning_index(const Pos *p) {
    Mask suit_mask = SUIT_MASK(SUIT_OF(p->trick[0]));
    int best = 0;
    for (int i = 1; i < p->ntrick; i++) {
        int c = p->trick[i];
        if ((BIT(c) & suit_mask) && c > p->trick[best]) best = i;
    }
    return best;
}

static void step(Pos *p, int card) {
    int seat = p->turn;
    Mask bit = BIT(card);
    p->hands[seat] &= ~bit;
    p->played |= bit;
    if (p->ntrick && SUIT_OF(card) != SUIT_OF(p->trick[0])) {
        p->voids[seat] |= 1 << SUIT_OF(p->trick[0]);
    } else if (!p->ntrick && SUIT_OF(card) == HEARTS && !p->hearts_broken &&
               p->rules.must_break) {
        p->voids[seat] |= 0xF & ~(1 << HEARTS);
    }
    if (SUIT_OF(card) == HEARTS || (card == QS && p->rules.queen_breaks)) p->hearts_broken = 1;
    p->trick[p->ntrick++] = card;
    if (p->ntrick < 4) {
        p->turn = (seat + 1) & 3;
        return;
    }
    int winner = (p->leader + winning_index(p)) & 3;
    Mask taken = BIT(p->trick[0]) | BIT(p->trick[1]) | BIT(p->trick[2]) | bit;
    p->points[winner] += points_of(taken);
    p->won[winner]++;
    if (taken & JD_BIT) p->jack_taker = winner;
    p->ntrick = 0;
    p->leader = winner;
    p->turn = winner;
    p->tricks_done++;
}

/* --- the Normal play policy (normal.py) --------------------------------------------------- */

static Mask moon_losers(Mask hand, Mask out) {
    Mask losers = 0;
    for (int s = 0; s < 4; s++) {
        Mask theirs = out & SUIT_MASK(s);
        if (theirs && (hand & SUIT_MASK(s))) losers |= hand & below(highest(theirs));
    }
    return losers;
}

static int moon_threat(const Pos *p, int me) {
    int total = p->points[0] + p->points[1] + p->points[2] + p->points[3];
    if (total < MOON_WATCH || total == TOTAL_POINTS) return -1;
    for (int s = 0; s < 4; s++)
        if (s != me && p->points[s] == total) return s;
    return -1;
}

static int any_void(const Pos *p, int suit) {
    return ((p->voids[0] | p->voids[1] | p->voids[2] | p->voids[3]) >> suit) & 1;
}

static int shoot(const Pos *p, Mask legal_cards, Mask out) {
    if (!p->ntrick) {
        int best = -1, best_count = -1;
        for (Mask m = legal_cards; m; m &= m - 1) {
            int c = lowest(m);
            if (out & above(c)) continue;
            int count = popcount(out & SUIT_MASK(SUIT_OF(c)));
            if (count > best_count || (count == best_count && c > best)) {
                best = c;
                best_count = count;
            }
        }
        return best >= 0 ? best : highest(legal_cards);
    }
    int win = p->trick[winning_index(p)];
    if (legal_cards & SUIT_MASK(SUIT_OF(p->trick[0]))) {
        Mask over = legal_cards & above(win);
        return over ? highest(over) : lowest(legal_cards);
    }
    Mask safe = legal_cards & ~POINT_MASK;
    return lowest(safe ? safe : legal_cards);
}

static int early_high_lead(const Pos *p, Mask choices, Mask out) {
    int best = -1;
    for (int suit = CLUBS; suit <= DIAMONDS; suit++) {
        Mask mine = choices & SUIT_MASK(suit);
        if (!mine || RANK_OF(highest(mine)) < HIGH_LEAD_RANK) continue;
        if (any_void(p, suit)) continue;
        if (popcount(p->played & SUIT_MASK(suit)) > 4 || popcount(out & SUIT_MASK(suit)) < 6)
            continue;
        if (highest(mine) > best) best = highest(mine);
    }
    return best;
}

static int lead(const Pos *p, Mask hand, Mask legal_cards, Mask out, int threat) {
    if (threat >= 0) {
        Mask hearts = legal_cards & HEART_MASK;
        if (hearts && !(out & above(highest(hearts)))) return highest(hearts);
    }
    int queen_out = !(p->played & QS_BIT);
    Mask spades = legal_cards & SPADE_MASK;
    Mask high_spades = QS_BIT | KS_BIT | AS_BIT;
    if (queen_out && spades && !(hand & high_spades)) return lowest(spades);
    Mask avoid = (queen_out && (hand & high_spades)) ? SPADE_MASK : 0;
    Mask choices = (legal_cards & ~avoid) ? (legal_cards & ~avoid) : legal_cards;
    int early = early_high_lead(p, choices, out);
    if (early >= 0) return early;
    int best = -1, k0 = 0, k1 = 0, k2 = 0;
    for (int suit = 0; suit < 4; suit++) {
        Mask mine = choices & SUIT_MASK(suit);
        if (!mine) continue;
        int c = lowest(mine);
        int a = (out & above(c)) ? 0 : 1;
        int b = popcount(out & below(c));
        int n = popcount(mine);
        if (best < 0 || a < k0 || (a == k0 && (b < k1 || (b == k1 && n < k2)))) {
            best = c;
            k0 = a;
            k1 = b;
            k2 = n;
        }
    }
    return best;
}

static int follow_spades(Mask legal_cards, int win, int last_and_clean) {
    if (legal_cards & QS_BIT) {
        Mask rest = legal_cards & ~QS_BIT;
        if (win > QS) return QS;
        if (rest) return highest((rest & below(win)) ? (rest & below(win)) : rest);
        return QS;
    }
    if (last_and_clean) return highest(legal_cards);
    Mask safe = legal_cards & below(QS);
    if (safe) return highest((safe & below(win)) ? (safe & below(win)) : safe);
    return lowest(legal_cards);
}

/* normal.py's _take_jack. */
static int take_jack(const Pos *p, Mask legal_cards, int win, int last) {
    Mask out = FULL_DECK & ~(p->played | p->hands[p->turn]);
    if ((legal_cards & JD_BIT) && win < JD && (last || !(out & above(JD)))) return JD;
    if (last) {
        for (int i = 0; i < p->ntrick; i++) {
            if (p->trick[i] != JD) continue;
            Mask over = legal_cards & above(win);
            if (over) return lowest(over);
        }
    }
    return -1;
}

static int follow(const Pos *p, Mask legal_cards, int threat) {
    int led = SUIT_OF(p->trick[0]);
    int wi = winning_index(p);
    int win_seat = (p->leader + wi) & 3;
    int win = p->trick[wi];
    Mask trick_mask = 0;
    for (int i = 0; i < p->ntrick; i++) trick_mask |= BIT(p->trick[i]);
    int trick_points = points_of(trick_mask);
    int last = p->ntrick == 3;
    Mask duck = legal_cards & below(win);
    Mask over = legal_cards & above(win);
    if (threat >= 0 && win_seat == threat && over && (trick_points || led == HEARTS))
        return highest(over);
    if (led == DIAMONDS && p->rules.jack && trick_points < 10) {
        int jack = take_jack(p, legal_cards, win, last);
        if (jack >= 0) return jack;
    }
    if (led == SPADES && !(p->played & QS_BIT))
        return follow_spades(legal_cards, win, last && !trick_points);
    if (trick_points || led == HEARTS) {
        if (duck) return highest(duck);
        return last ? highest(legal_cards) : lowest(legal_cards);
    }
    int first_round = popcount(p->played & SUIT_MASK(led)) == p->ntrick;
    if (last || p->tricks_done == 0 || (first_round && !any_void(p, led)))
        return highest(legal_cards);
    if (duck) return highest(duck);
    return lowest(legal_cards);
}

static int highest_rank(Mask cards, Mask hand) {
    int best = -1, best_rank = -1, best_len = 0;
    for (Mask m = cards; m; m &= m - 1) {
        int c = lowest(m);
        int len = popcount(hand & SUIT_MASK(SUIT_OF(c)));
        if (RANK_OF(c) > best_rank || (RANK_OF(c) == best_rank && len < best_len)) {
            best = c;
            best_rank = RANK_OF(c);
            best_len = len;
        }
    }
    return best;
}

static int discard(const Pos *p, Mask hand, Mask legal_cards, int threat) {
    int win_seat = (p->leader + winning_index(p)) & 3;
    if (threat >= 0) {
        if (win_seat == threat) {
            Mask safe = legal_cards & ~POINT_MASK;
            if (safe) return highest_rank(safe, hand);
        } else if (legal_cards & POINT_MASK) {
            return (legal_cards & QS_BIT) ? QS : highest(legal_cards & POINT_MASK);
        }
    }
    if (legal_cards & QS_BIT) return QS;
    if (!(p->played & QS_BIT) && (legal_cards & (AS_BIT | KS_BIT)))
        return highest(legal_cards & (AS_BIT | KS_BIT));
    if ((legal_cards & HEART_MASK) && !(threat >= 0 && win_seat == threat))
        return highest(legal_cards & HEART_MASK);
    Mask keep = SPADE_MASK & ~(QS_BIT | KS_BIT | AS_BIT);
    if (p->rules.jack) keep |= JD_BIT;
    return highest_rank((legal_cards & ~keep) ? (legal_cards & ~keep) : legal_cards, hand);
}

static int normal_play(const Pos *p, int me, Mask legal_cards) {
    if (!(legal_cards & (legal_cards - 1))) return lowest(legal_cards);
    Mask hand = p->hands[me];
    Mask out = FULL_DECK & ~(p->played | hand);
    int others = p->points[0] + p->points[1] + p->points[2] + p->points[3] - p->points[me];
    if (others == 0 && popcount(moon_losers(hand, out)) <= 1 && (out & POINT_MASK))
        return shoot(p, legal_cards, out);
    int threat = moon_threat(p, me);
    if (!p->ntrick) return lead(p, hand, legal_cards, out, threat);
    if (legal_cards & SUIT_MASK(SUIT_OF(p->trick[0]))) return follow(p, legal_cards, threat);
    return discard(p, hand, legal_cards, threat);
}

/* --- the learned play-out policy (Expert; app/bots/playout_policy.py) ---------------------- */

/* playout_policy.py's STATE_FEATURES, CARD_FEATURES and HIDDEN_LIMIT. */
#define POLICY_STATE 24
#define POLICY_CARD 20
#define POLICY_FEATURES (POLICY_STATE + POLICY_CARD)
#define POLICY_HIDDEN_LIMIT 128

/* One hidden layer of `hidden` ReLU units over a candidate's features, then a weighted sum: its
 * score. Laid out as playout_policy.py writes it: w1 [POLICY_FEATURES][hidden], b1, w2. */
typedef struct {
    int hidden;
    const float *w1, *b1, *w2;
} Policy;

/* Cards a seat holding `hand` could play instead of `a` or `b` to the same effect: the same
 * suit, no card in between that another seat may still hold, and neither the queen nor a
 * J♦ that scores (hard._same_group). */
static int same_effect(int a, int b, Mask hand, Mask played, const Rules *r) {
    if (a == b) return 1;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    if (SUIT_OF(lo) != SUIT_OF(hi) || lo == QS || hi == QS) return 0;
    if (r->jack && (lo == JD || hi == JD)) return 0;
    Mask between = (BIT(hi) - 1) & ~((BIT(lo) << 1) - 1);
    return !(between & ~(played | hand));
}

/* What every feature of one decision reads (playout_policy.Seen). */
typedef struct {
    int me;
    Mask hand, out;  /* the seat's cards; the cards it has not seen */
    int act;         /* 0 it leads, 1 it follows suit, 2 it discards */
    int win;         /* the card winning the open trick, -1 if it is empty */
    int others_void; /* bit s: another seat has shown a void in suit s */
} Seen;

static Seen seen_by(const Pos *p, int me) {
    Seen v = {me, p->hands[me], FULL_DECK & ~(p->played | p->hands[me]), 0, -1, 0};
    if (p->ntrick) {
        v.win = p->trick[winning_index(p)];
        v.act = (v.hand & SUIT_MASK(SUIT_OF(p->trick[0]))) ? 1 : 2;
    }
    for (int s = 0; s < 4; s++)
        if (s != me) v.others_void |= p->voids[s];
    return v;
}

/* playout_policy.state_features. */
static void state_features(const Pos *p, const Seen *v, float f[POLICY_STATE]) {
    int total = p->points[0] + p->points[1] + p->points[2] + p->points[3];
    int mine = p->points[v->me], most = 0;
    for (int s = 0; s < 4; s++)
        if (p->points[s] > most) most = p->points[s];
    int holder = total == 0 ? 0 : mine == total ? 1 : most == total ? 2 : 3;
    memset(f, 0, sizeof(float) * POLICY_STATE);
    f[holder] = 1;
    f[4] = holder == 2 && total >= MOON_WATCH;
    f[5] = mine / 26.0f;
    f[6] = total / 26.0f;
    f[7 + p->ntrick] = 1;
    f[11 + v->act] = 1;
    f[14] = p->tricks_done / 12.0f;
    f[15] = !(p->played & QS_BIT);
    f[16] = (v->hand & QS_BIT) != 0;
    f[17] = (v->hand & (KS_BIT | AS_BIT)) != 0;
    f[18] = p->hearts_broken != 0;
    if (p->ntrick) {
        Mask trick_mask = 0;
        for (int i = 0; i < p->ntrick; i++) trick_mask |= BIT(p->trick[i]);
        int trick_points = points_of(trick_mask);
        int win_seat = (p->leader + winning_index(p)) & 3;
        f[19] = (trick_points < 13 ? trick_points : 13) / 13.0f;
        f[20] = holder == 2 && p->points[win_seat] == total;
        f[21] = RANK_OF(v->win) / 12.0f;
        f[22] = p->points[win_seat] / 26.0f;
    }
    f[23] = popcount(v->out & POINT_MASK) / 26.0f;
}

/* playout_policy.card_features. */
static void card_features(const Seen *v, int card, int normal, float f[POLICY_CARD]) {
    int suit = SUIT_OF(card), act = v->act, win = v->win;
    Mask hand = v->hand, out = v->out;
    int sure = !(out & above(card)) && (act == 0 || (act == 1 && card > win));
    memset(f, 0, sizeof(float) * POLICY_CARD);
    f[suit] = 1;
    f[4] = RANK_OF(card) / 12.0f;
    f[5] = card == QS;
    f[6] = suit == HEARTS;
    f[7] = card == QS + 1 || card == QS + 2;
    f[8] = card == normal;
    f[9] = act == 1 && card > win;
    f[10] = popcount(out & above(card)) / 13.0f;
    f[11] = popcount(out & below(card)) / 13.0f;
    f[12] = popcount(hand & SUIT_MASK(suit)) / 13.0f;
    f[13] = popcount(out & SUIT_MASK(suit)) / 13.0f;
    f[14] = (v->others_void >> suit) & 1;
    f[15] = !(hand & above(card));
    f[16] = !(hand & below(card));
    f[17] = sure;
    f[18] = act == 1 && card < win;
    f[19] = points_of(BIT(card)) / 13.0f;
}

/* The card of `legal_cards` the policy scores highest, one card per group of equivalent plays
 * (Normal's card standing for its group, as in hard.play_choices; the first on a tie). */
static int policy_play(const Pos *p, int me, Mask legal_cards, const Policy *policy) {
    int normal = normal_play(p, me, legal_cards);
    if (!(legal_cards & (legal_cards - 1))) return normal;
    Mask hand = p->hands[me];
    int cands[13], n = 0;
    for (Mask m = legal_cards; m; m &= m - 1) {
        int c = lowest(m);
        if (!n || !same_effect(cands[n - 1], c, hand, p->played, &p->rules)) cands[n++] = c;
    }
    if (n == 1) return normal;
    Seen seen = seen_by(p, me);
    int hidden = policy->hidden;
    float state[POLICY_STATE], card[POLICY_CARD];
    float base[POLICY_HIDDEN_LIMIT], unit[POLICY_HIDDEN_LIMIT];
    state_features(p, &seen, state);
    /* The state's share of the hidden units, the same for every candidate. */
    memcpy(base, policy->b1, sizeof(float) * hidden);
    for (int i = 0; i < POLICY_STATE; i++) {
        if (state[i] == 0.0f) continue;
        const float *row = policy->w1 + i * hidden;
        for (int j = 0; j < hidden; j++) base[j] += state[i] * row[j];
    }
    int best = normal;
    float best_score = -INFINITY;
    for (int k = 0; k < n; k++) {
        int c = same_effect(cands[k], normal, hand, p->played, &p->rules) ? normal : cands[k];
        card_features(&seen, c, normal, card);
        memcpy(unit, base, sizeof(float) * hidden);
        for (int i = 0; i < POLICY_CARD; i++) {
            if (card[i] == 0.0f) continue;
            const float *row = policy->w1 + (POLICY_STATE + i) * hidden;
            for (int j = 0; j < hidden; j++) unit[j] += card[i] * row[j];
        }
        float score = 0.0f;
        for (int j = 0; j < hidden; j++) score += (unit[j] > 0.0f ? unit[j] : 0.0f) * policy->w2[j];
        if (score > best_score) {
            best_score = score;
            best = c;
        }
    }
    return best;
}

/* hearts_core.hand_scores: the moon added to the others or subtracted from the shooter. */
static void hand_scores(const Pos *p, int shooter, int subtract, int scores[4]) {
    const Rules *r = &p->rules;
    for (int s = 0; s < 4; s++) {
        if (shooter < 0)
            scores[s] = p->points[s] + (p->won[s] ? 0 : r->bonus);
        else if (!subtract)
            scores[s] = s == shooter ? 0 : TOTAL_POINTS;
        else
            scores[s] = s == shooter ? -TOTAL_POINTS : 0;
        if (s == p->jack_taker) scores[s] += r->jack;
    }
}

/* hearts_core.settle_totals: the totals after a hand, Perfect 100 applied. */
static void settle(const int totals[4], const int scores[4], const Rules *r, int after[4]) {
    for (int s = 0; s < 4; s++) {
        after[s] = totals[s] + scores[s];
        if (r->perfect && after[s] == r->target) after[s] = r->target / 2;
    }
}

/* hearts_core.match_winner: the one lowest total once a total reaches the target, or -1. */
static int match_winner(const int totals[4], int target) {
    int high = totals[0], low = totals[0], low_seat = 0, low_count = 0;
    for (int s = 1; s < 4; s++) {
        if (totals[s] > high) high = totals[s];
        if (totals[s] < low) {
            low = totals[s];
            low_seat = s;
        }
    }
    for (int s = 0; s < 4; s++) low_count += totals[s] == low;
    return high >= target && low_count == 1 ? low_seat : -1;
}

/* The finished hand's scores under the rules, a moon resolved by its rule (safe: as
 * hearts_core.moon_by_rule; the shooter's choice: as normal.choose_moon). */
static void score_hand(const Pos *p, const int totals[4], int scores[4]) {
    const Rules *r = &p->rules;
    int shooter = -1, subtract = 0;
    for (int s = 0; s < 4; s++)
        if (p->points[s] == TOTAL_POINTS) shooter = s;
    if (shooter >= 0 && r->moon == MOON_SUBTRACT) subtract = 1;
    if (shooter >= 0 && (r->moon == MOON_SAFE || r->moon == MOON_CHOICE)) {
        int added[4], after[4];
        hand_scores(p, shooter, 0, added);
        settle(totals, added, r, after);
        if (r->moon == MOON_SAFE) {
            int winner = match_winner(after, r->target);
            subtract = winner >= 0 && winner != shooter;
        } else {
            for (int s = 0; s < 4; s++)
                if (s != shooter && after[s] <= after[shooter]) subtract = 1;
        }
    }
    hand_scores(p, shooter, subtract, scores);
}

/* The points taken this hand by the seats other than `seat`. */
static int others_points(const Pos *p, int seat) {
    return p->points[0] + p->points[1] + p->points[2] + p->points[3] - p->points[seat];
}

/* The hand played out by Normal at every seat (by `policy` if not NULL), except that `shooter`
 * (-1: none) plays for the moon (Normal's shooting play) as long as no other seat has taken a
 * point; its scores under the rules. */
static void play_out(Pos *p, const int totals[4], int scores[4], int shooter,
                     const Policy *policy) {
    while (p->tricks_done < 13) {
        int seat = p->turn;
        Mask options = legal(p, seat);
        if (seat == shooter && (options & (options - 1)) && !others_points(p, seat))
            step(p, shoot(p, options, FULL_DECK & ~(p->played | p->hands[seat])));
        else if (policy)
            step(p, policy_play(p, seat, options, policy));
        else
            step(p, normal_play(p, seat, options));
    }
    score_hand(p, totals, scores);
}

/* How the hand ends the match for `me`: +1 won (the one lowest total once a total reaches
 * the target), -1 lost (it ends and `me` is not the lowest), 0 it goes on (or ends in a
 * shared low). */
static int match_result(const int scores[4], int me, const int totals[4], const Rules *r) {
    int final[4], high, low, low_count = 0;
    settle(totals, scores, r, final);
    high = low = final[0];
    for (int s = 1; s < 4; s++) {
        if (final[s] > high) high = final[s];
        if (final[s] < low) low = final[s];
    }
    if (high < r->target) return 0;
    if (final[me] > low) return -1;
    for (int s = 0; s < 4; s++) low_count += final[s] == low;
    return low_count == 1 ? 1 : 0;
}

/* Sums over the rollouts of one candidate: our points after the moon rule, match results. */
typedef struct {
    long points;
    long results;
} Tally;

static void tally(Pos *p, int me, const int totals[4], Tally *t, int shooter,
                  const Policy *policy) {
    int scores[4];
    play_out(p, totals, scores, shooter, policy);
    t->points += scores[me];
    t->results += match_result(scores, me, totals, &p->rules);
}

/* --- sampling the unseen cards (SplitMix64, as app/rules/deal_codes.py) ------------------- */

static inline uint64_t next_u64(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int below_bound(uint64_t *state, int bound) {
    uint64_t b = (uint64_t)bound;
    uint64_t rest = (0 - b) % b; /* 2**64 mod b */
    for (;;) {
        uint64_t v = next_u64(state);
        if (rest == 0 || v < 0 - rest) return (int)(v % b);
    }
}

/* Moves one placed card to another seat that may hold it, making room for `card`. */
static int make_room(int card, Mask hands[4], int room[4], int allowed[4][3],
                     const int n_allowed[4]) {
    int suit = SUIT_OF(card);
    for (int i = 0; i < n_allowed[suit]; i++) {
        int s = allowed[suit][i];
        for (Mask m = hands[s]; m; m &= m - 1) {
            int other = lowest(m);
            int os = SUIT_OF(other);
            for (int j = 0; j < n_allowed[os]; j++) {
                int s2 = allowed[os][j];
                if (s2 != s && room[s2] > 0) {
                    hands[s] &= ~BIT(other);
                    hands[s2] |= BIT(other);
                    room[s2]--;
                    room[s]++;
                    return s;
                }
            }
        }
    }
    return -1;
}

/* One deal of `cards` to the seats other than `me`, `need[s]` each, none in a suit the seat
 * has shown void in. Shuffle, then place the most constrained suits first; each card goes to
 * a seat with room drawn in proportion to that room, which keeps the deal close to uniform. */
static int deal(const int *cards, int n, const int need[4], const int voids[4], int me,
                uint64_t *rng, Mask hands[4]) {
    int order[52], sorted[52];
    for (int i = 0; i < n; i++) order[i] = cards[i];
    for (int i = n - 1; i > 0; i--) {
        int j = below_bound(rng, i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    int allowed[4][3], n_allowed[4];
    for (int suit = 0; suit < 4; suit++) {
        n_allowed[suit] = 0;
        for (int s = 0; s < 4; s++)
            if (s != me && !((voids[s] >> suit) & 1)) allowed[suit][n_allowed[suit]++] = s;
    }
    /* A stable sort by the number of seats that may hold the card's suit. */
    int k = 0;
    for (int count = 0; count <= 3; count++)
        for (int i = 0; i < n; i++)
            if (n_allowed[SUIT_OF(order[i])] == count) sorted[k++] = order[i];
    int room[4];
    for (int s = 0; s < 4; s++) {
        room[s] = need[s];
        hands[s] = 0;
    }
    for (int i = 0; i < n; i++) {
        int c = sorted[i], suit = SUIT_OF(c), total = 0, s = -1;
        for (int j = 0; j < n_allowed[suit]; j++)
            if (room[allowed[suit][j]] > 0) total += room[allowed[suit][j]];
        if (total > 0) {
            int pick = below_bound(rng, total);
            for (int j = 0; j < n_allowed[suit]; j++) {
                int t = allowed[suit][j];
                if (room[t] <= 0) continue;
                pick -= room[t];
                if (pick < 0) {
                    s = t;
                    break;
                }
            }
        } else {
            s = make_room(c, hands, room, allowed, n_allowed);
            if (s < 0) return 0;
        }
        hands[s] |= BIT(c);
        room[s]--;
    }
    return 1;
}

/* What the deciding seat knows, and the other seats' hands to fill in. */
typedef struct {
    Pos pos;
    int me;
    int need[4];
    int cards[52];
    int n_cards;
} Knowledge;

static int sample_world(const Knowledge *k, uint64_t *rng, Pos *world) {
    Mask hands[4];
    for (int attempt = 0; attempt < DEAL_ATTEMPTS; attempt++) {
        if (deal(k->cards, k->n_cards, k->need, k->pos.voids, k->me, rng, hands)) {
            *world = k->pos;
            for (int s = 0; s < 4; s++) world->hands[s] |= hands[s];
            return 1;
        }
    }
    return 0;
}

/* --- reading the others' plays (the Expert bot) ------------------------------------------- */

/* The seats' plays so far this hand, in order, and who holds what was played. */
typedef struct {
    int seats[52];
    int cards[52];
    int n;
    Mask played_by[4];
} History;

/* The log of how likely the other seats' plays so far are in a world whose hands are `now`
 * (the unplayed cards), if each of them plays as `model` would (Normal if NULL), except that
 * with probability `noise` it plays any legal card. The hand is replayed from its first trick. */
static double plays_log_likelihood(const Rules *rules, int me, const History *h,
                                   const Mask now[4], double noise, const Policy *model) {
    if (!h->n) return 0.0;
    Pos p;
    memset(&p, 0, sizeof p);
    p.rules = *rules;
    p.jack_taker = -1;
    for (int s = 0; s < 4; s++) p.hands[s] = now[s] | h->played_by[s];
    p.leader = p.turn = h->seats[0];
    double log_l = 0.0;
    for (int i = 0; i < h->n; i++) {
        int seat = h->seats[i], card = h->cards[i];
        if (seat != me) {
            Mask options = legal(&p, seat);
            int n_options = popcount(options);
            if (n_options > 1) {
                int expected = model ? policy_play(&p, seat, options, model)
                                     : normal_play(&p, seat, options);
                double spread = noise / n_options;
                int alike = same_effect(card, expected, p.hands[seat], p.played, &p.rules);
                log_l += log(alike ? 1.0 - noise + spread : spread);
            }
        }
        step(&p, card);
    }
    return log_l;
}

/* --- Python interface --------------------------------------------------------------------- */

static PyObject *SamplingError;

static int read_masks(PyObject *seq, Mask *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return 0;
        }
    }
    Py_DECREF(fast);
    return 1;
}

/* Small non-negative ints: counts, seats, cards, totals (at most 13 of them). */
static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    Mask values[13];
    if (n > 13 || !read_masks(seq, values, n, what)) return 0;
    for (int i = 0; i < n; i++) {
        if (values[i] > INT_MAX) {
            PyErr_Format(PyExc_ValueError, "%s: %llu is too large", what,
                         (unsigned long long)values[i]);
            return 0;
        }
        out[i] = (int)values[i];
    }
    return 1;
}

/* Whole numbers that may be negative (totals and scores under house rules). */
static int read_signed(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) break;
        if (v < INT_MIN / 4 || v > INT_MAX / 4) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, v);
            break;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return !PyErr_Occurred();
}

/* A hearts_rules.HeartsRules (duck-typed: its attributes) as C Rules. */
static int read_rules(PyObject *obj, Rules *r) {
    static const char *moons[] = {"add_to_others", "subtract_from_shooter", "shooters_choice",
                                  "safe"};
    const char *names[] = {"queen_breaks_hearts", "hearts_must_be_broken", "first_trick_points",
                           "jack_of_diamonds", "no_tricks_bonus", "target", "perfect_100"};
    int *fields[] = {&r->queen_breaks, &r->must_break, &r->first_points, &r->jack,
                     &r->bonus, &r->target, &r->perfect};
    for (int i = 0; i < 7; i++) {
        PyObject *a = PyObject_GetAttrString(obj, names[i]);
        if (!a) return 0;
        long v = PyLong_AsLong(a);
        Py_DECREF(a);
        if (v == -1 && PyErr_Occurred()) return 0;
        *fields[i] = (int)v;
    }
    PyObject *moon = PyObject_GetAttrString(obj, "moon");
    if (!moon) return 0;
    r->moon = -1;
    for (int i = 0; i < 4; i++)
        if (PyUnicode_Check(moon) && PyUnicode_CompareWithASCIIString(moon, moons[i]) == 0)
            r->moon = i;
    Py_DECREF(moon);
    if (r->moon < 0 || r->target < 1) {
        PyErr_SetString(PyExc_ValueError, "rules: not a rule set");
        return 0;
    }
    return 1;
}

/* A model.Pos (duck-typed: its attributes) as a C Pos. */
static int read_pos(PyObject *obj, Pos *p) {
    PyObject *a;
    int ok = 1;
    memset(p, 0, sizeof *p);
#define ATTR(name) (a = PyObject_GetAttrString(obj, name)) != NULL
    if (!(ATTR("hands"))) return 0;
    ok = read_masks(a, p->hands, 4, "hands");
    Py_DECREF(a);
    if (!ok || !(ATTR("points"))) return 0;
    ok = read_ints(a, p->points, 4, "points");
    Py_DECREF(a);
    if (!ok || !(ATTR("voids"))) return 0;
    ok = read_ints(a, p->voids, 4, "voids");
    Py_DECREF(a);
    if (!ok || !(ATTR("won"))) return 0;
    ok = read_ints(a, p->won, 4, "won");
    Py_DECREF(a);
    if (!ok || !(ATTR("rules"))) return 0;
    ok = read_rules(a, &p->rules);
    Py_DECREF(a);
    if (!ok || !(ATTR("trick"))) return 0;
    {
        Py_ssize_t n = PySequence_Size(a);
        if (n < 0 || n > 3) {
            Py_DECREF(a);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "trick: 0 to 3 cards");
            return 0;
        }
        p->ntrick = (int)n;
        ok = read_ints(a, p->trick, (int)n, "trick");
        Py_DECREF(a);
        if (!ok) return 0;
    }
    if (!(ATTR("played"))) return 0;
    p->played = PyLong_AsUnsignedLongLong(a);
    Py_DECREF(a);
    const char *names[] = {"leader", "turn", "hearts_broken", "tricks_done", "jack"};
    int *fields[] = {&p->leader, &p->turn, &p->hearts_broken, &p->tricks_done, &p->jack_taker};
    for (int i = 0; i < 5; i++) {
        if (!(ATTR(names[i]))) return 0;
        *fields[i] = (int)PyLong_AsLong(a);
        Py_DECREF(a);
    }
#undef ATTR
    return !PyErr_Occurred();
}

static int read_knowledge(PyObject *pos, int me, PyObject *need, Mask unseen, Knowledge *k) {
    if (!read_pos(pos, &k->pos) || !read_ints(need, k->need, 4, "need")) return 0;
    if (me < 0 || me > 3) {
        PyErr_SetString(PyExc_ValueError, "seat: 0 to 3");
        return 0;
    }
    k->me = me;
    k->n_cards = 0;
    int total = 0;
    for (int s = 0; s < 4; s++) total += s == me ? 0 : k->need[s];
    for (Mask m = unseen & FULL_DECK; m; m &= m - 1) k->cards[k->n_cards++] = lowest(m);
    if (total != k->n_cards) {
        PyErr_SetString(PyExc_ValueError, "need: the seats must hold every unseen card");
        return 0;
    }
    /* Every seat ends up with the cards it still has to play, so play-outs always have one. */
    const Pos *p = &k->pos;
    if (p->tricks_done > 13 || (p->ntrick && p->tricks_done == 13)) {
        PyErr_SetString(PyExc_ValueError, "pos: at most 13 tricks");
        return 0;
    }
    for (int s = 0; s < 4; s++) {
        int played_now = ((s - p->leader) & 3) < p->ntrick;
        int held = popcount(p->hands[s]) + (s == me ? 0 : k->need[s]);
        if (held != 13 - p->tricks_done - played_now || (p->hands[s] & (p->played | unseen))) {
            PyErr_Format(PyExc_ValueError, "pos: seat %d would not hold its cards", s);
            return 0;
        }
    }
    return 1;
}

static PyObject *py_normal_play(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *pos_obj;
    int me;
    unsigned long long legal_cards;
    Pos p;
    if (!PyArg_ParseTuple(args, "OiK", &pos_obj, &me, &legal_cards)) return NULL;
    if (!read_pos(pos_obj, &p)) return NULL;
    if (!legal_cards || me < 0 || me > 3) {
        PyErr_SetString(PyExc_ValueError, "no legal card, or no such seat");
        return NULL;
    }
    return PyLong_FromLong(normal_play(&p, me, legal_cards));
}

/* A policy's weights: a bytes-like object of float32s as playout_policy.py lays them out.
 * Holds `buffer` (release it after use); 0 with an exception set if the size is not one. */
static int read_policy(PyObject *obj, Py_buffer *buffer, Policy *policy) {
    if (PyObject_GetBuffer(obj, buffer, PyBUF_SIMPLE) < 0) return 0;
    Py_ssize_t floats = buffer->len / (Py_ssize_t)sizeof(float);
    Py_ssize_t hidden = floats / (POLICY_FEATURES + 2);
    if (buffer->len % (Py_ssize_t)sizeof(float) || floats % (POLICY_FEATURES + 2) || hidden < 1 ||
        hidden > POLICY_HIDDEN_LIMIT) {
        PyBuffer_Release(buffer);
        PyErr_SetString(PyExc_ValueError, "policy: (44 + 2) * hidden float32s, hidden 1 to 128");
        return 0;
    }
    policy->hidden = (int)hidden;
    policy->w1 = buffer->buf;
    policy->b1 = policy->w1 + POLICY_FEATURES * hidden;
    policy->w2 = policy->b1 + hidden;
    return 1;
}

/* A policy argument that may be None (the play-outs or the reading then use Normal's play). */
typedef struct {
    Py_buffer buffer;
    Policy weights;
    Policy *policy; /* &weights, or NULL for None */
} OptionalPolicy;

/* 0 with an exception set if `obj` is neither None nor a policy's weights. */
static int read_optional_policy(PyObject *obj, OptionalPolicy *out) {
    out->policy = NULL;
    if (obj == Py_None) return 1;
    if (!read_policy(obj, &out->buffer, &out->weights)) return 0;
    out->policy = &out->weights;
    return 1;
}

static void release_optional_policy(OptionalPolicy *p) {
    if (p->policy) PyBuffer_Release(&p->buffer);
    p->policy = NULL;
}

static PyObject *py_policy_play(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *pos_obj, *policy_obj;
    int me;
    unsigned long long legal_cards;
    Pos p;
    Py_buffer buffer;
    Policy policy;
    if (!PyArg_ParseTuple(args, "OiKO", &pos_obj, &me, &legal_cards, &policy_obj)) return NULL;
    if (!read_pos(pos_obj, &p)) return NULL;
    if (me < 0 || me > 3 || !legal_cards || (legal_cards & ~p.hands[me])) {
        PyErr_SetString(PyExc_ValueError, "legal: cards of the seat's hand");
        return NULL;
    }
    if (!read_policy(policy_obj, &buffer, &policy)) return NULL;
    int card = policy_play(&p, me, (Mask)legal_cards, &policy);
    PyBuffer_Release(&buffer);
    return PyLong_FromLong(card);
}

static PyObject *py_sample_hands(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *pos_obj, *need;
    int me;
    unsigned long long unseen, state;
    Knowledge k;
    Pos world;
    if (!PyArg_ParseTuple(args, "OiOKK", &pos_obj, &me, &need, &unseen, &state)) return NULL;
    if (!read_knowledge(pos_obj, me, need, unseen, &k)) return NULL;
    uint64_t rng = state;
    if (!sample_world(&k, &rng, &world)) {
        PyErr_SetString(SamplingError, "no deal of the unseen cards fits the view");
        return NULL;
    }
    return Py_BuildValue("(KKKK)K", (unsigned long long)world.hands[0],
                         (unsigned long long)world.hands[1], (unsigned long long)world.hands[2],
                         (unsigned long long)world.hands[3], (unsigned long long)rng);
}

static PyObject *tallies(const Tally *t, int n) {
    PyObject *points = PyList_New(n), *results = PyList_New(n);
    if (!points || !results) goto fail;
    for (int i = 0; i < n; i++) {
        PyObject *pv = PyLong_FromLong(t[i].points), *rv = PyLong_FromLong(t[i].results);
        if (!pv || !rv) {
            Py_XDECREF(pv);
            Py_XDECREF(rv);
            goto fail;
        }
        PyList_SET_ITEM(points, i, pv);
        PyList_SET_ITEM(results, i, rv);
    }
    return Py_BuildValue("NN", points, results);
fail:
    Py_XDECREF(points);
    Py_XDECREF(results);
    return NULL;
}

/* The candidate cards of a play decision: 1 to 13, each legal for the deciding seat, whose
 * turn it must be. Their number, or -1 with an exception set. */
static int read_candidates(PyObject *cands_obj, const Knowledge *k, int cands[13]) {
    Py_ssize_t n = PySequence_Size(cands_obj);
    if (n < 1 || n > 13) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "candidates: 1 to 13 cards");
        return -1;
    }
    if (!read_ints(cands_obj, cands, (int)n, "candidates")) return -1;
    if (k->pos.turn != k->me || k->pos.tricks_done >= 13) {
        PyErr_SetString(PyExc_ValueError, "it must be the deciding seat's turn");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (cands[i] < 0 || cands[i] > 51 || !(legal(&k->pos, k->me) & BIT(cands[i]))) {
            PyErr_SetString(PyExc_ValueError, "candidates: every card must be legal now");
            return -1;
        }
    }
    return (int)n;
}

static PyObject *py_play_rollouts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *pos_obj, *need, *cands_obj, *totals_obj, *policy_obj = Py_None;
    int me, worlds;
    unsigned long long unseen, state;
    Knowledge k;
    int cands[13], totals[4];
    Tally t[13];
    OptionalPolicy policy;
    if (!PyArg_ParseTuple(args, "OiOKOOKi|O", &pos_obj, &me, &need, &unseen, &cands_obj,
                          &totals_obj, &state, &worlds, &policy_obj))
        return NULL;
    if (!read_knowledge(pos_obj, me, need, unseen, &k)) return NULL;
    int n = read_candidates(cands_obj, &k, cands);
    if (n < 0 || !read_signed(totals_obj, totals, 4, "totals")) return NULL;
    if (worlds < 1) {
        PyErr_SetString(PyExc_ValueError, "worlds >= 1");
        return NULL;
    }
    if (!read_optional_policy(policy_obj, &policy)) return NULL;
    memset(t, 0, sizeof t);
    uint64_t rng = state;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int w = 0; w < worlds; w++) {
        Pos world;
        if (!sample_world(&k, &rng, &world)) {
            failed = 1;
            break;
        }
        for (int i = 0; i < n; i++) {
            Pos trial = world;
            step(&trial, cands[i]);
            tally(&trial, me, totals, &t[i], -1, policy.policy);
        }
    }
    Py_END_ALLOW_THREADS
    release_optional_policy(&policy);
    if (failed) {
        PyErr_SetString(SamplingError, "no deal of the unseen cards fits the view");
        return NULL;
    }
    PyObject *sums = tallies(t, (int)n);
    if (!sums) return NULL;
    return Py_BuildValue("NK", sums, (unsigned long long)rng);
}

static int read_history(PyObject *obj, History *h) {
    PyObject *fast = PySequence_Fast(obj, "history");
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    memset(h, 0, sizeof *h);
    if (n > 52) {
        PyErr_SetString(PyExc_ValueError, "history: at most 52 plays");
        Py_DECREF(fast);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int pair[2];
        if (!read_ints(PySequence_Fast_GET_ITEM(fast, i), pair, 2, "history: (seat, card)")) {
            Py_DECREF(fast);
            return 0;
        }
        if (pair[0] > 3 || pair[1] > 51) {
            PyErr_SetString(PyExc_ValueError, "history: a seat 0 to 3 and a card 0 to 51");
            Py_DECREF(fast);
            return 0;
        }
        h->seats[i] = pair[0];
        h->cards[i] = pair[1];
        h->played_by[pair[0]] |= BIT(pair[1]);
    }
    h->n = (int)n;
    Py_DECREF(fast);
    return 1;
}

/* The effective number of deals, (sum w)^2 / sum w^2, of weights exp(power * (log_w - top)). */
static double effective_deals(const double *log_w, int n, double top, double power) {
    double sum = 0.0, squares = 0.0;
    for (int w = 0; w < n; w++) {
        double x = exp(power * (log_w[w] - top));
        sum += x;
        squares += x * x;
    }
    return sum * sum / squares;
}

/* The largest power in [0, 1] to raise the weights to (within 1/64) that keeps at least
 * `target` effective deals: a few unlikely plays would otherwise leave a handful of deals
 * carrying all the weight, and the candidates compared on copies of them. */
static double tempering(const double *log_w, int n, double top, double target) {
    if (target <= 0.0 || effective_deals(log_w, n, top, 1.0) >= target) return 1.0;
    double low = 0.0, high = 1.0;
    for (int i = 0; i < 6; i++) {
        double mid = (low + high) / 2;
        if (effective_deals(log_w, n, top, mid) >= target)
            low = mid;
        else
            high = mid;
    }
    return low;
}

/* play_rollouts with worlds read from the others' plays: `drawn` deals are sampled, each
 * weighed by plays_log_likelihood, and `worlds` of them drawn again in proportion to their
 * weights (systematic resampling); a deal drawn several times is played out once and
 * counted as often. With `moon_plan`, each candidate is also played out with the deciding
 * seat playing for the moon, summed apart. */
static PyObject *py_weighted_rollouts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *pos_obj, *need, *cands_obj, *totals_obj, *history_obj, *policy_obj = Py_None,
             *model_obj = Py_None;
    int me, worlds, drawn, moon_plan;
    unsigned long long unseen, state;
    double noise, ess;
    Knowledge k;
    History h;
    int cands[13], totals[4];
    Tally t[13], moon[13];
    OptionalPolicy policy, model;
    if (!PyArg_ParseTuple(args, "OiOKOOKiiOdpd|OO", &pos_obj, &me, &need, &unseen, &cands_obj,
                          &totals_obj, &state, &worlds, &drawn, &history_obj, &noise,
                          &moon_plan, &ess, &policy_obj, &model_obj))
        return NULL;
    if (!read_knowledge(pos_obj, me, need, unseen, &k) || !read_history(history_obj, &h))
        return NULL;
    int n = read_candidates(cands_obj, &k, cands);
    if (n < 0 || !read_signed(totals_obj, totals, 4, "totals")) return NULL;
    if (worlds < 1 || drawn < 1 || drawn > 100000 || !(noise > 0.0 && noise <= 1.0) ||
        !(ess >= 0.0 && ess <= 1.0)) {
        PyErr_SetString(PyExc_ValueError,
                        "worlds >= 1, 1 <= drawn <= 100000, 0 < noise <= 1, 0 <= ess <= 1");
        return NULL;
    }
    if (!read_optional_policy(policy_obj, &policy)) return NULL;
    if (!read_optional_policy(model_obj, &model)) {
        release_optional_policy(&policy);
        return NULL;
    }
    Mask *deals = PyMem_Malloc(sizeof(Mask) * 4 * (size_t)drawn);
    double *weights = PyMem_Malloc(sizeof(double) * (size_t)drawn);
    if (!deals || !weights) {
        PyMem_Free(deals);
        PyMem_Free(weights);
        release_optional_policy(&policy);
        release_optional_policy(&model);
        return PyErr_NoMemory();
    }
    memset(t, 0, sizeof t);
    memset(moon, 0, sizeof moon);
    uint64_t rng = state;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    double top = -INFINITY, sum = 0.0;
    for (int w = 0; w < drawn && !failed; w++) {
        Mask *hands = deals + 4 * w;
        int dealt = 0;
        for (int attempt = 0; attempt < DEAL_ATTEMPTS && !dealt; attempt++)
            dealt = deal(k.cards, k.n_cards, k.need, k.pos.voids, k.me, &rng, hands);
        if (!dealt) {
            failed = 1;
            break;
        }
        for (int s = 0; s < 4; s++) hands[s] |= k.pos.hands[s];
        weights[w] = plays_log_likelihood(&k.pos.rules, me, &h, hands, noise, model.policy);
        if (weights[w] > top) top = weights[w];
    }
    if (!failed) {
        double power = tempering(weights, drawn, top, ess * worlds);
        for (int w = 0; w < drawn; w++) sum += weights[w] = exp(power * (weights[w] - top));
        /* One uniform draw, then `worlds` evenly spaced marks on the weights' cumulative sum. */
        double spacing = sum / worlds;
        double mark = spacing * ((double)(next_u64(&rng) >> 11) * 0x1.0p-53);
        double cumulative = 0.0;
        int placed = 0;
        for (int w = 0; w < drawn && placed < worlds; w++) {
            cumulative += weights[w];
            int copies = 0;
            /* The last deal takes any mark that rounding left past the sum. */
            while (placed < worlds && (mark < cumulative || w == drawn - 1)) {
                copies++;
                placed++;
                mark += spacing;
            }
            if (!copies) continue;
            Pos world = k.pos;
            for (int s = 0; s < 4; s++) world.hands[s] = deals[4 * w + s];
            for (int i = 0; i < n; i++) {
                for (int plan = 0; plan <= moon_plan; plan++) {
                    Pos trial = world;
                    Tally one = {0, 0};
                    step(&trial, cands[i]);
                    tally(&trial, me, totals, &one, plan ? me : -1, policy.policy);
                    Tally *sums = plan ? &moon[i] : &t[i];
                    sums->points += one.points * copies;
                    sums->results += one.results * copies;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(deals);
    PyMem_Free(weights);
    release_optional_policy(&policy);
    release_optional_policy(&model);
    if (failed) {
        PyErr_SetString(SamplingError, "no deal of the unseen cards fits the view");
        return NULL;
    }
    PyObject *sums = tallies(t, (int)n);
    if (!sums) return NULL;
    if (!moon_plan) return Py_BuildValue("NOK", sums, Py_None, (unsigned long long)rng);
    PyObject *moon_sums = tallies(moon, (int)n);
    if (!moon_sums) {
        Py_DECREF(sums);
        return NULL;
    }
    return Py_BuildValue("NNK", sums, moon_sums, (unsigned long long)rng);
}

static PyObject *py_plays_likelihood(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *rules_obj, *hands_obj, *history_obj, *model_obj = Py_None;
    int me;
    double noise;
    Rules rules;
    Mask hands[4];
    History h;
    OptionalPolicy model;
    if (!PyArg_ParseTuple(args, "OiOOd|O", &rules_obj, &me, &hands_obj, &history_obj, &noise,
                          &model_obj))
        return NULL;
    if (!read_rules(rules_obj, &rules) || !read_masks(hands_obj, hands, 4, "hands") ||
        !read_history(history_obj, &h))
        return NULL;
    if (me < 0 || me > 3 || !(noise > 0.0 && noise <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "a seat 0 to 3, 0 < noise <= 1");
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        if (hands[s] & h.played_by[s] || popcount(hands[s] | h.played_by[s]) != 13) {
            PyErr_Format(PyExc_ValueError, "seat %d: its hand and plays must make 13 cards", s);
            return NULL;
        }
    }
    if (!read_optional_policy(model_obj, &model)) return NULL;
    double log_l = plays_log_likelihood(&rules, me, &h, hands, noise, model.policy);
    release_optional_policy(&model);
    return PyFloat_FromDouble(log_l);
}

/* Whole hands from the exchange on: deal w's hands, every other seat passing passes[w][s] and
 * `me` passing candidate i, to the seat `offset` places on. */
/* The seed's rules when a caller gives none. */
static const Rules SEED_RULES = {0, 1, 0, 0, 0, MOON_ADD, 100, 0};

static int read_optional_rules(PyObject *obj, Rules *r) {
    if (obj == NULL) {
        *r = SEED_RULES;
        return 1;
    }
    return read_rules(obj, r);
}

static PyObject *py_pass_rollouts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *deals_obj, *passes_obj, *cands_obj, *totals_obj, *rules_obj = NULL;
    int me, offset, totals[4], shooter = -1;
    Rules rules;
    if (!PyArg_ParseTuple(args, "OOiiOO|Oi", &deals_obj, &passes_obj, &me, &offset, &cands_obj,
                          &totals_obj, &rules_obj, &shooter))
        return NULL;
    if (shooter < -1 || shooter > 3) {
        PyErr_SetString(PyExc_ValueError, "shooter: a seat 0 to 3, or -1");
        return NULL;
    }
    if (!read_signed(totals_obj, totals, 4, "totals") || !read_optional_rules(rules_obj, &rules))
        return NULL;
    Py_ssize_t worlds = PySequence_Size(deals_obj), n = PySequence_Size(cands_obj);
    if (worlds < 1 || n < 1 || PySequence_Size(passes_obj) != worlds || me < 0 || me > 3 ||
        offset < 1 || offset > 3) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "one pass per deal, candidates, a seat, an offset");
        return NULL;
    }
    Mask *deals = PyMem_Malloc(sizeof(Mask) * 8 * (size_t)worlds);
    Mask *cands = PyMem_Malloc(sizeof(Mask) * (size_t)n);
    Tally *t = PyMem_Calloc((size_t)n, sizeof(Tally));
    PyObject *result = NULL;
    if (!deals || !cands || !t) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t w = 0; w < worlds; w++) {
        PyObject *d = PySequence_GetItem(deals_obj, w), *q = PySequence_GetItem(passes_obj, w);
        int ok = d && q && read_masks(d, deals + 8 * w, 4, "deal") &&
                 read_masks(q, deals + 8 * w + 4, 4, "passes");
        Py_XDECREF(d);
        Py_XDECREF(q);
        if (!ok) goto done;
    }
    for (Py_ssize_t w = 0; w < worlds; w++) {
        const Mask *hands = deals + 8 * w, *passes = hands + 4;
        Mask all = 0;
        for (int s = 0; s < 4; s++) {
            int gives_ok = s == me || (popcount(passes[s]) == 3 && !(passes[s] & ~hands[s]));
            /* The deciding seat's hand is the same in every deal. */
            int same_hand = s != me || hands[s] == deals[me];
            if (popcount(hands[s]) != 13 || (all & hands[s]) || !gives_ok || !same_hand) {
                PyErr_SetString(PyExc_ValueError, "deals: four hands of 13, passes of 3 from them");
                goto done;
            }
            all |= hands[s];
        }
    }
    if (!read_masks(cands_obj, cands, (int)n, "candidates")) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (popcount(cands[i]) != 3 || (cands[i] & ~deals[me])) {
            PyErr_SetString(PyExc_ValueError, "candidates: three cards of the seat's hand each");
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t w = 0; w < worlds; w++) {
        const Mask *hands = deals + 8 * w, *passes = hands + 4;
        for (Py_ssize_t i = 0; i < n; i++) {
            Pos p;
            memset(&p, 0, sizeof p);
            p.rules = rules;
            p.jack_taker = -1;
            for (int s = 0; s < 4; s++) {
                Mask gives = s == me ? cands[i] : passes[s];
                p.hands[s] |= hands[s] & ~gives;
                p.hands[(s + offset) & 3] |= gives;
            }
            for (int s = 0; s < 4; s++)
                if (p.hands[s] & TWO_OF_CLUBS_BIT) p.leader = p.turn = s;
            tally(&p, me, totals, &t[i], shooter, NULL);
        }
    }
    Py_END_ALLOW_THREADS
    result = tallies(t, (int)n);
done:
    PyMem_Free(deals);
    PyMem_Free(cands);
    PyMem_Free(t);
    return result;
}

static PyObject *py_match_result(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *scores_obj, *totals_obj, *rules_obj = NULL;
    int me, scores[4], totals[4];
    Rules rules;
    if (!PyArg_ParseTuple(args, "OiO|O", &scores_obj, &me, &totals_obj, &rules_obj)) return NULL;
    if (!read_signed(scores_obj, scores, 4, "scores") ||
        !read_signed(totals_obj, totals, 4, "totals") || !read_optional_rules(rules_obj, &rules))
        return NULL;
    if (me < 0 || me > 3) {
        PyErr_SetString(PyExc_ValueError, "seat: 0 to 3");
        return NULL;
    }
    return PyLong_FromLong(match_result(scores, me, totals, &rules));
}

static PyMethodDef methods[] = {
    {"normal_play", py_normal_play, METH_VARARGS,
     "normal_play(pos, seat, legal) -> card: Normal's play for `seat` in a model.Pos."},
    {"sample_hands", py_sample_hands, METH_VARARGS,
     "sample_hands(pos, seat, need, unseen, rng_state) -> (hands, rng_state): the hands of\n"
     "`pos` with the `unseen` cards dealt to the other seats, `need[s]` each, voids kept."},
    {"play_rollouts", py_play_rollouts, METH_VARARGS,
     "play_rollouts(pos, seat, need, unseen, candidates, totals, rng_state, worlds[, policy])\n"
     "-> ((points, results), rng_state): `worlds` sampled deals (as sample_hands), each\n"
     "candidate played in each and the hand finished by Normal (by `policy` if given: see\n"
     "weighted_rollouts); per candidate the sums of the seat's points and of its match\n"
     "results (see match_result)."},
    {"weighted_rollouts", py_weighted_rollouts, METH_VARARGS,
     "weighted_rollouts(pos, seat, need, unseen, candidates, totals, rng_state, worlds,\n"
     "drawn, history, noise, moon_plan, ess[, policy[, model]])\n"
     "-> ((points, results), moon, rng_state): as\n"
     "play_rollouts, the `worlds` deals drawn again from `drawn` sampled ones, each weighed\n"
     "by how likely the other seats' plays in `history` ((seat, card) in order) are under\n"
     "Normal's policy played with probability 1 - noise, any legal card otherwise; the\n"
     "weights raised to the largest power that keeps ess * worlds effective deals. With\n"
     "`moon_plan`, `moon` holds the same sums when `seat` plays for the moon (else None).\n"
     "With `policy` (playout_policy.WEIGHTS), the play-outs play by it instead of Normal;\n"
     "with `model`, the plays are read as that policy's instead of Normal's."},
    {"policy_play", py_policy_play, METH_VARARGS,
     "policy_play(pos, seat, legal, policy) -> card: the play-out policy's play for `seat`\n"
     "in a model.Pos (playout_policy.choose_play written in C)."},
    {"plays_likelihood", py_plays_likelihood, METH_VARARGS,
     "plays_likelihood(rules, seat, hands, history, noise[, model]) -> float: the log of how\n"
     "likely the plays of the seats other than `seat` in `history` are, as weighted_rollouts\n"
     "weighs a deal whose unplayed cards are `hands`."},
    {"pass_rollouts", py_pass_rollouts, METH_VARARGS,
     "pass_rollouts(deals, passes, seat, offset, candidates, totals[, rules[, shooter]])\n"
     "-> (points, results): each deal's hand played by Normal after the exchange, `seat`\n"
     "passing each candidate, scored under `rules` (a HeartsRules; the seed's if absent);\n"
     "`shooter` (a seat, -1 none) plays for the moon while no other seat has a point."},
    {"match_result", py_match_result, METH_VARARGS,
     "match_result(scores, seat, totals[, rules]) -> +1 the hand wins the match for `seat`,\n"
     "-1 loses it, 0 the match goes on."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_search", "The Hard bot's search core (see the top of _search.c).", -1,
    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__search(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    SamplingError = PyErr_NewException("app.bots._search.SamplingError", PyExc_RuntimeError,
                                       NULL);
    if (!SamplingError || PyModule_AddObject(m, "SamplingError", SamplingError) < 0) {
        Py_XDECREF(SamplingError);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(SamplingError);
    return m;
}
