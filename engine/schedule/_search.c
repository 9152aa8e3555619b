/*
 * The movement search of engine/schedule/individual_search.py in C: the same tabu search, step
 * for step, so the same arguments give the very same grid (individual_search.py keeps the
 * Python search as the reference and for what this one refuses).
 *
 * - Random draws: Python's random.Random(seed) for a seed below 2**64 (MT19937 seeded by
 *   init_by_array with the seed's 32-bit words, least significant first, as CPython's
 *   _randommodule.c), randrange(n) as _randbelow_with_getrandbits: k = n.bit_length(), draw
 *   the top k bits of a word until one is below n; randint(a, b) = a + randrange(b - a + 1).
 * - The same order everywhere: the pair drawn from the list of bad pairs (swap-removal), its
 *   meeting rounds in order, the places of the round in order, the players of each place in
 *   seat order, the ties in the order offered, the rounds of a closure in the order found.
 * - Costs in 128-bit integers. A pair meeting m times weighs (pairs + 1)**(m - 2), which
 *   outgrows them for many rounds; but a search only reads the weights of the meeting counts
 *   it meets (rarely above 3). Weights are exact up to the count whose weight, times every
 *   sum the search forms (at most pairs + 8 * players + 8 weights), stays below 2**bits
 *   (bits <= 126); reading a weight above it stops the search, and improve() answers None:
 *   the caller then runs the Python search from the start.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 wide;
__extension__ typedef unsigned __int128 uwide;

/* A bound on the arguments alone: individual_search sends far fewer players (_C_PLAYERS). */
#define MAX_PLAYERS 30000

/* individual_search's settings: _PATIENCE, _RUNS, _TENURE (low, high), _LONGEST */
typedef struct {
    int patience, runs, tenure_low, tenure_high, longest;
} Settings;

/* --- MT19937, as CPython's Modules/_randommodule.c ------------------------------------------ */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index;
} Mt;

static void mt_init_genrand(Mt *mt, uint32_t s) {
    uint32_t *m = mt->state;
    m[0] = s;
    for (int i = 1; i < MT_N; i++)
        m[i] = 1812433253U * (m[i - 1] ^ (m[i - 1] >> 30)) + (uint32_t)i;
    mt->index = MT_N;
}

static void mt_init_by_array(Mt *mt, const uint32_t *key, size_t length) {
    uint32_t *m = mt->state;
    size_t i = 1, j = 0, k;
    mt_init_genrand(mt, 19650218U);
    for (k = MT_N > length ? MT_N : length; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
        if (j >= length)
            j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        m[i] = (m[i] ^ ((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            m[0] = m[MT_N - 1];
            i = 1;
        }
    }
    m[0] = 0x80000000U;
}

/* random.Random(seed) for 0 <= seed < 2**64: its 32-bit words, least significant first (one
 * word 0 for 0). */
static void mt_seed(Mt *mt, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    mt_init_by_array(mt, key, key[1] ? 2 : 1);
}

static uint32_t mt_word(Mt *mt) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *m = mt->state, y;
    if (mt->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (m[kk] & 0x80000000U) | (m[kk + 1] & 0x7fffffffU);
            m[kk] = m[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (m[kk] & 0x80000000U) | (m[kk + 1] & 0x7fffffffU);
            m[kk] = m[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (m[MT_N - 1] & 0x80000000U) | (m[0] & 0x7fffffffU);
        m[MT_N - 1] = m[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        mt->index = 0;
    }
    y = m[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* randrange(n) for 1 <= n < 2**32. */
static uint32_t mt_below(Mt *mt, uint32_t n) {
    int k = 0;
    uint32_t r;
    while (k < 32 && (n >> k))
        k++;
    do
        r = mt_word(mt) >> (32 - k);
    while (r >= n);
    return r;
}

/* --- the grid and its bookkeeping --------------------------------------------------------- */

typedef struct {
    int rounds, tables, places, players, bye;
    int lim;        /* weight[m] exact for m <= lim */
    int max_group;  /* the most players of one place */
    int overflow;   /* a weight above lim was read: the search's answer is void */
    int no_memory;
    /* Round r's places are seat[r * players + start[r * places + q] ...], size[...] of them:
     * its tables in order, then the bye. */
    int *start, *size, *seat;
    int *place;    /* place[r * players + p] */
    int *held;     /* held[p * places + q]: the round in which p holds place q, or -1 */
    int *meet;     /* meet[a * players + b] */
    int *bad;      /* bad[2 * i], bad[2 * i + 1]: the i-th pair that meets more than once */
    int *bad_index; /* bad_index[a * players + b] (a < b): its index in bad */
    int nbad;
    wide cost;
    wide *own;
    wide *weight, *gain, *loss;
    int *net, *touched, *stack, *closure;
    wide *joins;
    unsigned *mark;
    unsigned stamp;
    int *tabu;     /* tabu[r * players + p]: the step until which p may not move in round r */
    long long work;
    Settings settings;
    Mt rng;
    /* the moves of least change offered in a step: (x, y, rounds at arena[offset], length) */
    int has_delta, step, nfound, found_cap, arena_len, arena_cap;
    wide delta, margin;
    int *found; /* found[4 * i ...]: x, y, offset, length */
    int *arena;
} Search;

static void *grab(Search *s, size_t count, size_t each) {
    void *p = calloc(count ? count : 1, each);
    if (!p)
        s->no_memory = 1;
    return p;
}

static void search_free(Search *s) {
    void *all[] = {s->start, s->size,  s->seat,    s->place,   s->held,  s->meet,
                   s->bad,   s->bad_index, s->own, s->weight,  s->gain,  s->loss,
                   s->net,   s->touched, s->joins, s->stack,   s->closure, s->mark,
                   s->tabu,  s->found, s->arena};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
    memset(s, 0, sizeof *s);
}

static inline wide weight_of(Search *s, int m) {
    if (m < 0 || m > s->lim) {
        s->overflow = 1;
        return 0;
    }
    return s->weight[m];
}

static inline wide gain_of(Search *s, int m) {
    if (m < 0 || m >= s->lim) {
        s->overflow = 1;
        return 0;
    }
    return s->gain[m];
}

static inline wide loss_of(Search *s, int m) {
    if (m < 1 || m > s->lim) {
        s->overflow = 1;
        return 0;
    }
    return s->loss[m];
}

/* The weights (as individual_search._meeting_weights) up to the last that stays exact. */
static int set_weights(Search *s, int bits) {
    int top = s->rounds + 1 > 2 ? s->rounds + 1 : 2; /* the Python list's last index */
    uwide pairs = (uwide)s->players * (uwide)(s->players > 0 ? s->players - 1 : 0) / 2;
    uwide base = pairs + 1, cap = ((uwide)1 << bits) / (pairs + 8 * (uwide)s->players + 8);
    s->weight = grab(s, (size_t)top + 1, sizeof(wide));
    s->gain = grab(s, (size_t)top + 1, sizeof(wide));
    s->loss = grab(s, (size_t)top + 1, sizeof(wide));
    if (s->no_memory)
        return -1;
    s->lim = 1; /* not even weight[2] = 1 fits: every repeated meeting stops the search */
    if (cap >= 1) {
        s->weight[2] = 1;
        s->lim = 2;
        while (s->lim < top && (uwide)s->weight[s->lim] <= cap / base) {
            s->weight[s->lim + 1] = s->weight[s->lim] * (wide)base;
            s->lim++;
        }
    }
    for (int m = 0; m < s->lim; m++)
        s->gain[m] = s->weight[m + 1] - s->weight[m];
    for (int m = 1; m <= s->lim; m++)
        s->loss[m] = s->weight[m - 1] - s->weight[m];
    return 0;
}

static void add_bad(Search *s, int a, int b) {
    s->bad_index[a * s->players + b] = s->nbad;
    s->bad[2 * s->nbad] = a;
    s->bad[2 * s->nbad + 1] = b;
    s->nbad++;
}

static void drop_bad(Search *s, int a, int b) {
    int index = s->bad_index[a * s->players + b];
    s->nbad--;
    if (index < s->nbad) {
        int la = s->bad[2 * s->nbad], lb = s->bad[2 * s->nbad + 1];
        s->bad[2 * index] = la;
        s->bad[2 * index + 1] = lb;
        s->bad_index[la * s->players + lb] = index;
    }
}

static void change(Search *s, int a, int b, int by) {
    int before = s->meet[a * s->players + b], after = before + by;
    wide diff;
    s->meet[a * s->players + b] = s->meet[b * s->players + a] = after;
    diff = weight_of(s, after) - weight_of(s, before);
    s->cost += diff;
    s->own[a] += diff;
    s->own[b] += diff;
    if (before >= 2 && after < 2)
        drop_bad(s, a < b ? a : b, a < b ? b : a);
    else if (after >= 2 && before < 2)
        add_bad(s, a < b ? a : b, a < b ? b : a);
}

/* The players of place q in round r. */
static inline int *group_of(Search *s, int r, int q, int *size) {
    *size = s->size[r * s->places + q];
    return s->seat + (size_t)r * s->players + s->start[r * s->places + q];
}

/* The state of the grid: sizes[r * tables + t] players at table t of round r, their numbers
 * one after the other in seats (already checked). */
static int search_init(Search *s, const int *sizes, const int *seats, int bits) {
    int R = s->rounds, T = s->tables, P = s->players, Q = T + 1, k = 0;
    size_t PP = (size_t)P * P;
    s->places = Q;
    s->bye = T;
    s->start = grab(s, (size_t)R * Q, sizeof(int));
    s->size = grab(s, (size_t)R * Q, sizeof(int));
    s->seat = grab(s, (size_t)R * P, sizeof(int));
    s->place = grab(s, (size_t)R * P, sizeof(int));
    s->held = grab(s, (size_t)P * Q, sizeof(int));
    s->meet = grab(s, PP, sizeof(int));
    s->bad = grab(s, PP + 2, sizeof(int));
    s->bad_index = grab(s, PP, sizeof(int));
    s->own = grab(s, (size_t)P, sizeof(wide));
    s->net = grab(s, (size_t)P, sizeof(int));
    s->stack = grab(s, (size_t)R, sizeof(int));
    s->closure = grab(s, (size_t)R, sizeof(int));
    s->mark = grab(s, (size_t)R, sizeof(unsigned));
    s->tabu = grab(s, (size_t)R * P, sizeof(int));
    if (s->no_memory || set_weights(s, bits) < 0)
        return -1;
    for (size_t i = 0; i < (size_t)P * Q; i++)
        s->held[i] = -1;
    for (size_t i = 0; i < (size_t)R * P; i++)
        s->tabu[i] = -1;
    s->max_group = 1;
    for (int r = 0; r < R; r++) {
        int *place = s->place + (size_t)r * P, *seat = s->seat + (size_t)r * P, n = 0;
        for (int p = 0; p < P; p++)
            place[p] = T;
        for (int t = 0; t < T; t++) {
            int count = sizes[r * T + t];
            s->start[r * Q + t] = n;
            s->size[r * Q + t] = count;
            for (int i = 0; i < count; i++) {
                int a = seats[k + i];
                seat[n + i] = a;
                place[a] = t;
                s->held[a * Q + t] = r;
                for (int j = i + 1; j < count; j++) {
                    int b = seats[k + j];
                    s->meet[a * P + b]++;
                    s->meet[b * P + a]++;
                }
            }
            k += count;
            n += count;
            if (count > s->max_group)
                s->max_group = count;
        }
        s->start[r * Q + T] = n;
        s->size[r * Q + T] = P - n;
        if (P - n > s->max_group)
            s->max_group = P - n;
        for (int p = 0; p < P; p++)
            if (place[p] == T) {
                seat[n++] = p;
                s->held[p * Q + T] = r;
            }
    }
    s->touched = grab(s, 2 * (size_t)s->max_group * R + 1, sizeof(int));
    s->joins = grab(s, (size_t)s->max_group, sizeof(wide));
    if (s->no_memory)
        return -1;
    for (int a = 0; a < P; a++)
        for (int b = a + 1; b < P; b++) {
            int m = s->meet[a * P + b];
            if (m >= 2) {
                wide w = weight_of(s, m);
                add_bad(s, a, b);
                s->cost += w;
                s->own[a] += w;
                s->own[b] += w;
            }
        }
    return 0;
}

/* --- the search ------------------------------------------------------------------------------ */

static int is_tabu(Search *s, int x, int y, const int *rounds, int n) {
    for (int i = 0; i < n; i++) {
        const int *row = s->tabu + (size_t)rounds[i] * s->players;
        if (row[x] > s->step || row[y] > s->step)
            return 1;
    }
    return 0;
}

static inline int may_take(Search *s, wide least) {
    return !s->has_delta || least <= s->delta;
}

static void offer(Search *s, wide delta, int x, int y, const int *rounds, int n) {
    int *move;
    if (s->has_delta && delta > s->delta)
        return;
    if (delta >= s->margin && is_tabu(s, x, y, rounds, n))
        return;
    if (!s->has_delta || delta < s->delta) {
        s->has_delta = 1;
        s->delta = delta;
        s->nfound = s->arena_len = 0;
    }
    if (s->nfound == s->found_cap) {
        int cap = s->found_cap ? 2 * s->found_cap : 64;
        int *more = realloc(s->found, (size_t)cap * 4 * sizeof(int));
        if (!more) {
            s->no_memory = 1;
            return;
        }
        s->found = more;
        s->found_cap = cap;
    }
    if (s->arena_len + n > s->arena_cap) {
        int cap = s->arena_cap ? 2 * s->arena_cap : 256;
        int *more;
        while (cap < s->arena_len + n)
            cap *= 2;
        more = realloc(s->arena, (size_t)cap * sizeof(int));
        if (!more) {
            s->no_memory = 1;
            return;
        }
        s->arena = more;
        s->arena_cap = cap;
    }
    memcpy(s->arena + s->arena_len, rounds, (size_t)n * sizeof(int));
    move = s->found + 4 * s->nfound++;
    move[0] = x;
    move[1] = y;
    move[2] = s->arena_len;
    move[3] = n;
    s->arena_len += n;
}

/* The rounds in which x and y must exchange places, from round r (as _Search._closure);
 * its length, or -1 if above the longest allowed. */
static int closure(Search *s, int r, int x, int y) {
    int *rounds = s->closure, *stack = s->stack, n = 1, depth = 1, P = s->players;
    const int *held_x = s->held + (size_t)x * s->places, *held_y = s->held + (size_t)y * s->places;
    if (++s->stamp == 0) {
        memset(s->mark, 0, (size_t)s->rounds * sizeof(unsigned));
        s->stamp = 1;
    }
    rounds[0] = stack[0] = r;
    s->mark[r] = s->stamp;
    while (depth) {
        const int *place_c = s->place + (size_t)stack[--depth] * P;
        int d = held_x[place_c[y]];
        if (d >= 0 && s->mark[d] != s->stamp) {
            s->mark[d] = s->stamp;
            rounds[n++] = stack[depth++] = d;
        }
        d = held_y[place_c[x]];
        if (d >= 0 && s->mark[d] != s->stamp) {
            s->mark[d] = s->stamp;
            rounds[n++] = stack[depth++] = d;
        }
    }
    return n <= s->settings.longest ? n : -1;
}

/* Note in net how many more times each player meets x (and fewer y) after the exchange in
 * these rounds; the players touched. */
static int count_changes(Search *s, int x, int y, const int *rounds, int n) {
    int count = 0;
    for (int i = 0; i < n; i++) {
        int c = rounds[i], qx = s->place[(size_t)c * s->players + x];
        int qy = s->place[(size_t)c * s->players + y], size, *group;
        if (qx != s->bye) {
            group = group_of(s, c, qx, &size);
            for (int j = 0; j < size; j++)
                if (group[j] != x) {
                    s->net[group[j]]--;
                    s->touched[count++] = group[j];
                }
        }
        if (qy != s->bye) {
            group = group_of(s, c, qy, &size);
            for (int j = 0; j < size; j++)
                if (group[j] != y) {
                    s->net[group[j]]++;
                    s->touched[count++] = group[j];
                }
        }
    }
    return count;
}

static wide delta_of(Search *s, int x, int y, const int *rounds, int n) {
    int count = count_changes(s, x, y, rounds, n);
    const int *meet_x = s->meet + (size_t)x * s->players;
    const int *meet_y = s->meet + (size_t)y * s->players;
    wide delta = 0;
    for (int i = 0; i < count; i++) {
        int a = s->touched[i], more = s->net[a];
        if (more == 1)
            delta += gain_of(s, meet_x[a]) + loss_of(s, meet_y[a]);
        else if (more == -1)
            delta += loss_of(s, meet_x[a]) + gain_of(s, meet_y[a]);
        else if (more)
            delta += weight_of(s, meet_x[a] + more) - weight_of(s, meet_x[a]) +
                     weight_of(s, meet_y[a] - more) - weight_of(s, meet_y[a]);
        s->net[a] = 0;
    }
    return delta;
}

static void offer_repaired(Search *s, int r, int x, int y) {
    int n = closure(s, r, x, y);
    if (n < 0)
        return;
    s->work += n;
    if (may_take(s, -s->own[x] - s->own[y]))
        offer(s, delta_of(s, x, y, s->closure, n), x, y, s->closure, n);
}

/* y's part of the change of a move within round r: joining x's mates, leaving his own. */
static wide y_part(Search *s, int r, int y, const int *group_x, int size_x, int x) {
    const int *meet_y = s->meet + (size_t)y * s->players;
    wide part = 0;
    int qy = s->place[(size_t)r * s->players + y], size, *group;
    for (int i = 0; i < size_x; i++)
        if (group_x[i] != x)
            part += gain_of(s, meet_y[group_x[i]]);
    if (qy != s->bye) {
        group = group_of(s, r, qy, &size);
        for (int i = 0; i < size; i++)
            if (group[i] != y)
                part += loss_of(s, meet_y[group[i]]);
    }
    return part;
}

static void offer_moves_to(Search *s, int r, int x, int home, int there, wide leave_x) {
    int size, size_x = 0, *group = group_of(s, r, there, &size), *group_x = NULL;
    const int *meet_x = s->meet + (size_t)x * s->players;
    wide stay_x = leave_x, *joins = s->joins;
    if (s->held[(size_t)x * s->places + there] >= 0) {
        for (int i = 0; i < size; i++)
            offer_repaired(s, r, x, group[i]);
        return;
    }
    for (int i = 0; i < size; i++) {
        joins[i] = there == s->bye ? 0 : gain_of(s, meet_x[group[i]]);
        stay_x += joins[i];
    }
    if (home != s->bye)
        group_x = group_of(s, r, home, &size_x);
    for (int i = 0; i < size; i++) {
        int y = group[i];
        if (s->held[(size_t)y * s->places + home] >= 0)
            offer_repaired(s, r, x, y);
        else if (may_take(s, stay_x - joins[i] - s->own[y]))
            offer(s, stay_x - joins[i] + y_part(s, r, y, group_x, size_x, x), x, y, &r, 1);
    }
}

static void offer_moves_of(Search *s, int r, int x) {
    int home = s->place[(size_t)r * s->players + x], size;
    const int *meet_x = s->meet + (size_t)x * s->players;
    wide leave_x = 0;
    if (home != s->bye) {
        int *group = group_of(s, r, home, &size);
        for (int i = 0; i < size; i++)
            if (group[i] != x)
                leave_x += loss_of(s, meet_x[group[i]]);
    }
    s->work += s->players;
    for (int there = 0; there < s->places; there++)
        if (there != home)
            offer_moves_to(s, r, x, home, there, leave_x);
}

static void exchange(Search *s, int r, int x, int y) {
    int P = s->players, Q = s->places, *place = s->place + (size_t)r * P;
    int qx = place[x], qy = place[y], size_x, size_y, ix = 0, iy = 0;
    int *group_x = group_of(s, r, qx, &size_x), *group_y = group_of(s, r, qy, &size_y);
    int *held_x = s->held + (size_t)x * Q, *held_y = s->held + (size_t)y * Q;
    if (qx != s->bye)
        for (int i = 0; i < size_x; i++)
            if (group_x[i] != x) {
                change(s, x, group_x[i], -1);
                change(s, y, group_x[i], +1);
            }
    if (qy != s->bye)
        for (int i = 0; i < size_y; i++)
            if (group_y[i] != y) {
                change(s, y, group_y[i], -1);
                change(s, x, group_y[i], +1);
            }
    while (group_x[ix] != x)
        ix++;
    while (group_y[iy] != y)
        iy++;
    group_x[ix] = y;
    group_y[iy] = x;
    place[x] = qy;
    place[y] = qx;
    if (held_x[qx] == r)
        held_x[qx] = -1;
    if (held_y[qy] == r)
        held_y[qy] = -1;
    held_x[qy] = r;
    held_y[qx] = r;
}

static int meeting_round(Search *s, int a, int b) {
    int count = 0, pick;
    for (int r = 0; r < s->rounds; r++) {
        const int *place = s->place + (size_t)r * s->players;
        count += place[a] == place[b] && place[a] != s->bye;
    }
    if (!count) { /* not in a valid grid: Python's randrange(0) would raise */
        s->overflow = 1;
        return 0;
    }
    pick = (int)mt_below(&s->rng, (uint32_t)count);
    for (int r = 0;; r++) {
        const int *place = s->place + (size_t)r * s->players;
        if (place[a] == place[b] && place[a] != s->bye && pick-- == 0)
            return r;
    }
}

/* The seats of every table, round by round (the bye left out), into out. */
static void snapshot(Search *s, int *out) {
    for (int r = 0; r < s->rounds; r++) {
        int n = s->start[r * s->places + s->bye];
        memcpy(out, s->seat + (size_t)r * s->players, (size_t)n * sizeof(int));
        out += n;
    }
}

/* One run (as _Search.run): the best grid seen into best, its cost, the work done in work. */
static wide search_run(Search *s, long long limit, int *best) {
    wide best_cost = s->cost;
    int since = 0, step = 0;
    snapshot(s, best);
    s->work = 0;
    while (s->nbad && since < s->settings.patience && s->work < limit) {
        int i = (int)mt_below(&s->rng, (uint32_t)s->nbad), a = s->bad[2 * i], b = s->bad[2 * i + 1];
        int r = meeting_round(s, a, b);
        s->has_delta = s->nfound = s->arena_len = 0;
        s->step = step;
        s->margin = best_cost - s->cost;
        offer_moves_of(s, r, a);
        offer_moves_of(s, r, b);
        since++;
        step++;
        if (s->overflow || s->no_memory)
            break;
        if (!s->nfound)
            continue;
        {
            const int *move = s->found + 4 * mt_below(&s->rng, (uint32_t)s->nfound);
            int x = move[0], y = move[1];
            for (int j = 0; j < move[3]; j++) {
                int c = s->arena[move[2] + j];
                int low = s->settings.tenure_low, high = s->settings.tenure_high;
                int until = step + low + (int)mt_below(&s->rng, (uint32_t)(high - low + 1));
                exchange(s, c, x, y);
                s->tabu[(size_t)c * s->players + x] = s->tabu[(size_t)c * s->players + y] = until;
            }
        }
        if (s->overflow)
            break;
        if (s->cost < best_cost) {
            best_cost = s->cost;
            snapshot(s, best);
            since = 0;
        }
    }
    return best_cost;
}

typedef struct {
    int rounds, tables, players, bits, seats;
    uint64_t seed;
    long long work;
    Settings settings;
    int *sizes, *flat;
} Request;

/* As individual_search.improve: 1 with the best grid in out, 0 if no run beat the start, -1 if
 * a weight above the exact ones was read, -2 out of memory. */
static int improve_grid(const Request *q, int *out) {
    long long work = q->work;
    wide best_cost = 0;
    int improved = 0, *found = malloc(((size_t)q->seats + 1) * sizeof(int));
    if (!found)
        return -2;
    for (int run = 0; run < q->settings.runs; run++) {
        Search s;
        wide cost;
        int status = 0;
        memset(&s, 0, sizeof s);
        s.rounds = q->rounds;
        s.tables = q->tables;
        s.players = q->players;
        s.settings = q->settings;
        if (search_init(&s, q->sizes, q->flat, q->bits) < 0)
            status = -2;
        else if (s.overflow)
            status = -1;
        else {
            mt_seed(&s.rng, q->seed + (uint64_t)run);
            if (run == 0)
                best_cost = s.cost;
            cost = search_run(&s, work, found);
            status = s.no_memory ? -2 : s.overflow ? -1 : 0;
            if (!status && cost < best_cost) {
                memcpy(out, found, (size_t)q->seats * sizeof(int));
                best_cost = cost;
                improved = 1;
            }
            work -= s.work;
        }
        search_free(&s);
        if (status) {
            free(found);
            return status;
        }
        if (best_cost == 0 || work <= 0)
            break;
    }
    free(found);
    return improved;
}

/* --- Python face ----------------------------------------------------------------------------- */

static int read_player(PyObject *item, int players, int *out) {
    long value = PyLong_AsLong(item);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < 0 || value >= players) {
        PyErr_Format(PyExc_ValueError, "player %ld is not between 0 and %d", value, players - 1);
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* One round's tables into q (sizes and seats); -1 with an exception set if ill-formed. */
static int read_round(Request *q, PyObject *round, int r, char *seen) {
    PyObject *tables = PySequence_Fast(round, "a round is a list of tables");
    Py_ssize_t count;
    int status = 0;
    if (!tables)
        return -1;
    count = PySequence_Fast_GET_SIZE(tables);
    if (r == 0)
        q->tables = (int)count;
    if (count != q->tables) {
        PyErr_Format(PyExc_ValueError, "round %d has %zd tables, round 1 has %d", r + 1, count,
                     q->tables);
        Py_DECREF(tables);
        return -1;
    }
    if (r == 0)
        q->sizes = PyMem_Calloc((size_t)q->rounds * (count ? count : 1), sizeof(int));
    if (!q->sizes) {
        Py_DECREF(tables);
        PyErr_NoMemory();
        return -1;
    }
    memset(seen, 0, (size_t)q->players + 1);
    for (Py_ssize_t t = 0; t < count && !status; t++) {
        PyObject *group = PySequence_Fast(PySequence_Fast_GET_ITEM(tables, t),
                                          "a table is a list of players");
        Py_ssize_t n;
        if (!group) {
            status = -1;
            break;
        }
        n = PySequence_Fast_GET_SIZE(group);
        q->sizes[(size_t)r * count + t] = (int)n;
        for (Py_ssize_t i = 0; i < n && !status; i++) {
            int p;
            if (read_player(PySequence_Fast_GET_ITEM(group, i), q->players, &p) < 0)
                status = -1;
            else if (seen[p]) {
                PyErr_Format(PyExc_ValueError, "player %d sits twice in round %d", p, r + 1);
                status = -1;
            } else {
                seen[p] = 1;
                q->flat[q->seats++] = p;
            }
        }
        Py_DECREF(group);
    }
    Py_DECREF(tables);
    return status;
}

static PyObject *py_improve(PyObject *self, PyObject *args) {
    PyObject *rows, *sequence = NULL, *result = NULL;
    Py_ssize_t players, rounds;
    unsigned long long seed;
    long long work;
    int bits, status, *out = NULL;
    char *seen = NULL;
    Request q;
    (void)self;
    memset(&q, 0, sizeof q);
    Settings *t = &q.settings;
    if (!PyArg_ParseTuple(args, "OnKLi(iiiii)", &rows, &players, &seed, &work, &bits, &t->patience,
                          &t->runs, &t->tenure_low, &t->tenure_high, &t->longest))
        return NULL;
    if (players < 0 || players > MAX_PLAYERS || bits < 8 || bits > 126 || t->runs < 1 ||
        seed > UINT64_MAX - (unsigned)(t->runs - 1) || t->tenure_low > t->tenure_high ||
        (long long)t->tenure_high - t->tenure_low >= (1LL << 31)) {
        PyErr_SetString(PyExc_ValueError, "players, seed, bits or settings out of range");
        return NULL;
    }
    if (!(sequence = PySequence_Fast(rows, "a grid is a list of rounds")))
        return NULL;
    rounds = PySequence_Fast_GET_SIZE(sequence);
    if (rounds == 0 || rounds > 100000) {
        PyErr_SetString(PyExc_ValueError, "a grid has at least one round (and not 100000)");
        goto done;
    }
    q.rounds = (int)rounds;
    q.players = (int)players;
    q.seed = seed;
    q.work = work;
    q.bits = bits;
    seen = PyMem_Malloc((size_t)players + 1);
    q.flat = PyMem_Malloc(((size_t)players * rounds + 1) * sizeof(int));
    if (!seen || !q.flat) {
        PyErr_NoMemory();
        goto done;
    }
    for (int r = 0; r < q.rounds; r++)
        if (read_round(&q, PySequence_Fast_GET_ITEM(sequence, r), r, seen) < 0)
            goto done;
    if (!(out = PyMem_Malloc(((size_t)q.seats + 1) * sizeof(int)))) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    status = improve_grid(&q, out);
    Py_END_ALLOW_THREADS
    if (status == -2)
        PyErr_NoMemory();
    else if (status == -1)
        result = Py_NewRef(Py_None);
    else if (status == 0)
        result = Py_NewRef(Py_False);
    else if ((result = PyList_New(q.seats))) {
        for (int i = 0; i < q.seats; i++) {
            PyObject *item = PyLong_FromLong(out[i]);
            if (!item) {
                Py_CLEAR(result);
                break;
            }
            PyList_SET_ITEM(result, i, item);
        }
    }
done:
    Py_XDECREF(sequence);
    PyMem_Free(seen);
    PyMem_Free(q.flat);
    PyMem_Free(q.sizes);
    PyMem_Free(out);
    return result;
}

static PyObject *py_draws(PyObject *self, PyObject *args) {
    unsigned long long seed;
    PyObject *bounds, *sequence, *result;
    Mt mt;
    (void)self;
    if (!PyArg_ParseTuple(args, "KO", &seed, &bounds))
        return NULL;
    if (!(sequence = PySequence_Fast(bounds, "bounds is a list of ints")))
        return NULL;
    mt_seed(&mt, seed);
    result = PyList_New(PySequence_Fast_GET_SIZE(sequence));
    for (Py_ssize_t i = 0; result && i < PySequence_Fast_GET_SIZE(sequence); i++) {
        unsigned long n = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(sequence, i));
        PyObject *item;
        if (PyErr_Occurred() || n == 0 || n > UINT32_MAX) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a bound is between 1 and 2**32 - 1");
            Py_CLEAR(result);
            break;
        }
        if (!(item = PyLong_FromUnsignedLong(mt_below(&mt, (uint32_t)n)))) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, item);
    }
    Py_DECREF(sequence);
    return result;
}

static PyMethodDef methods[] = {
    {"improve", py_improve, METH_VARARGS,
     "improve(rows, players, seed, work, bits, (patience, runs, tenure low, tenure high, "
     "longest)): the seats of the best grid, table by table, "
     "round by round (a flat list); False if no run beat the start; None if the search read a "
     "weight above what 2**bits holds exactly (run the Python search instead)."},
    {"draws", py_draws, METH_VARARGS,
     "draws(seed, bounds): random.Random(seed).randrange(n) for each n of bounds, in order."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_search",
                                       "The movement search of individual_search.py in C.", -1,
                                       methods};

PyMODINIT_FUNC PyInit__search(void) { return PyModule_Create(&moduledef); }
