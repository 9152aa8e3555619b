/*
 * Double-dummy solver for trick-taking games with up to 4 players, 4 suits of up to 16 ranks.
 *
 * A hand is one uint64: suit s occupies bits 16*s .. 16*s+15, rank index r (0 lowest) is bit r.
 * Players are numbered in play order (0, 1, ..., n-1, then 0 again). The trick is won by the
 * highest trump, else the highest card of the suit led.
 *
 * The value of a position is the sum of the weights of the winners of the remaining tricks;
 * the players of the maximising side try to make it as high as possible, the others as low.
 * "Tricks of a partnership" is weight 1 for both partners; "one player against the rest" is
 * weight 1 for that player alone.
 *
 * The search answers "can the maximising side reach at least `need`?" (a null-window
 * alpha-beta), repeated on the trick count until the value is known. Positions at the start of
 * a trick are kept in a transposition table under partition search: every search also returns
 * the set of cards whose rank mattered, closed upwards per suit ("the top k cards of the
 * suit"), and an entry matches every position with the same leader, the same suit lengths in
 * every hand and the same owners of those top cards. Cards of one hand with no live card of
 * another hand between them are equivalent and searched once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__SSSE3__)
#include <tmmintrin.h>
#define SIMD_SCAN 1
#else
#define SIMD_SCAN 0
#endif

typedef uint64_t u64;
typedef uint32_t u32;

#define MAXP 4
#define FLAG_MUST_TRUMP 1   /* a player void in the suit led must trump if he can */
#define FLAG_NO_UNDERTRUMP 2 /* a void player may not trump below the trick's top trump */

/* Cutting trick starts on the leader's quick tricks: measured 1.2x more nodes on bridge deals
   (the table already holds those positions, with fewer cards that matter), so off. */
#ifndef USE_QUICK_TRICKS
#define USE_QUICK_TRICKS 0
#endif

/* Lead ordering: the weight (in eighths) of the opponents' cards in the suit led, a void
   counting as more than any length; and the bonus of the lead that last cut at the same
   depth for the same side (measured: 56.1 M to 35.0 M positions on 6 deals of 13 cards,
   16.9 M instead of 29.4 M on the bench's first deal; 48 rather than 24 eighths: 77.0 M to
   69.7 M on five bench deals, 45.0 M to 39.8 M on 8 bridge deals). The same bonus for the
   following hands doubles the positions searched. */
#ifndef LEAD_BRANCH
#define LEAD_BRANCH 48
#endif
#ifndef KILLER
#define KILLER 30
#endif
/* The bonus of the lead that cut there before the last one, another card (deal 43 of the
   bench 192.6 M positions instead of 198.4 M, its fire 39.8 M instead of 47.8 M; +25:
   192.8 M) */
#ifndef KILLER2
#define KILLER2 15
#endif

/* A following hand that cannot surely win the trick, the last player to it an opponent: the
   bonus of a card that beats the trick so far and the last player's second card, so that he
   must give up his top card to win it (DDS's "force out the ace"). */
#ifndef FORCE_TOP
#define FORCE_TOP 20
#endif

/* Settling trick starts on the run of top trumps of one hand (see trump_bound). */
#ifndef USE_TRUMP_BOUND
#define USE_TRUMP_BOUND 1
#endif

#ifndef BOUNDS_AFTER_PROBE
#define BOUNDS_AFTER_PROBE 0
#endif

/* Positions with fewer tricks left than this are searched without the table. */
#ifndef TT_FROM
#define TT_FROM 2
#endif

/* An entry that settles a probe moves to the start of its key's scan (the probe reads a key's
   entries from the newest): measured 61.4 M to 60.0 M positions on five bench deals and a
   quarter to a half fewer summaries read a probe; 0 leaves the entries where they are. */
#ifndef PROBE_MTF
#define PROBE_MTF 1
#endif

/* Equivalent cards of a following hand may have cards of the trick between them (see
   gen_moves). */
#ifndef GROUP_ACROSS_TRICK
#define GROUP_ACROSS_TRICK 1
#endif

/* Cards of one hand below every card that mattered to the answer of a card of the same suit
   below them too are not searched (DDS's "lowest win"). */
#ifndef SKIP_LOW
#define SKIP_LOW 1
#endif

#ifndef DDS_STATS
#define DDS_STATS 0
#endif
#if DDS_STATS
#include <stdio.h>
static u64 st_probes, st_sigs, st_entries, st_hits;
#endif

#define SUIT(c) ((c) >> 4)
#define BIT(c) (1ULL << (c))
#define SUITMASK(s) (0xFFFFULL << (16 * (s)))

static inline int top_bit(u64 x) { return 63 - __builtin_clzll(x); }
static inline int low_bit(u64 x) { return __builtin_ctzll(x); }
static inline int popc(u64 x) { return __builtin_popcountll(x); }

/* ---------------------------------------------------------------------------------------- */
/* Transposition table */

/* An entry is 16 bytes: the owners of the cards that matter packed two bits a card, suit 0's
   top cards first, then suit 1's, and so on, so that a position of at most 32 live cards fits
   in 64 bits. A key of more live cards ("wide") gives each entry two units, the second holding
   the owners past the 32nd card in its `own`; its other fields are unused. */
typedef struct {
    u64 own;        /* the owners of the cards that matter, packed */
    uint16_t ks;    /* how many cards matter (the top ones), a nibble a suit */
    uint8_t lb, ub; /* bounds on the value of the remaining tricks */
    uint8_t best;   /* the best lead: suit << 4 | place from the top among the suit's live cards */
    uint8_t hits;   /* probes it settled since the last collection, halved by each (at most 255) */
} Entry;

/* Whether the positions of a key hold more than 32 live cards (two units an entry). */
#define WIDE_FROM 33
_Static_assert(sizeof(Entry) == 16, "an entry is 16 bytes");

/* The two-bit mask of the top k live cards of a suit (k <= 15: ranks 0 to 14). */
static inline u32 kmask(int k) { return (1u << (2 * k)) - 1; }

/* The owners own[4] (two bits a card, highest first, per suit) of the top cards that ks names,
   packed suit after suit: the low 64 bits in *lo, the rest in *hi. */
static inline u64 pack_own(const u32 own[4], unsigned ks, u64 *hi) {
    u64 lo = 0, h = 0;
    int pos = 0;
    for (int su = 0; su < 4; su++) {
        int k = (ks >> (4 * su)) & 15;
        if (!k) continue;
        u64 v = own[su] & kmask(k);
        if (pos < 64) {
            lo |= v << pos;
            if (pos + 2 * k > 64) h |= v >> (64 - pos);
        } else {
            h |= v << (pos - 64);
        }
        pos += 2 * k;
    }
    *hi = h;
    return lo;
}

/* The same for at most 32 cards (64 bits). */
static inline u64 pack_own_narrow(const u32 own[4], unsigned ks) {
    int k0 = ks & 15, k1 = (ks >> 4) & 15, k2 = (ks >> 8) & 15, k3 = ks >> 12;
    return (u64)(own[0] & kmask(k0)) | (u64)(own[1] & kmask(k1)) << (2 * k0) |
           (u64)(own[2] & kmask(k2)) << (2 * (k0 + k1)) |
           (u64)(own[3] & kmask(k3)) << (2 * (k0 + k1 + k2));
}

static inline uint16_t ks_of(const u32 mask[4]) {
    uint16_t ks = 0;
    for (int su = 0; su < 4; su++)
        ks |= (uint16_t)((__builtin_popcount(mask[su]) / 2) << (4 * su));
    return ks;
}

/* The entries of one slot (leader, suit lengths and the code of tt_code) are contiguous, so a
   probe reads them in one sweep; a slot's block doubles as it fills, up to MAX_PER_KEY
   entries, after which the oldest entries are overwritten in turn. */
#ifndef MAX_PER_KEY
#define MAX_PER_KEY 1024
#endif

typedef struct {
    u64 key; /* suit lengths of every hand, a nibble each */
    int32_t block;   /* the first unit of the key's entries */
    uint16_t leader; /* the key's code (tt_code) + 1; 0 = empty slot */
    uint8_t wide;    /* 1: two units an entry (more than 32 live cards) */
    uint8_t split;   /* in a key's WILD_CODE slot: its entries are split by the owners */
    uint16_t count, cap, ring; /* entries, not units */
} Slot;

typedef struct {
    Slot *slots;
    Entry *entries;
    /* beside each unit, for the entry starting there, its summary (entry_sig: the owners of
       the top three cards of each suit it needs and how many of them it needs): a probe reads
       these first and the entry only when they agree */
    u32 *sigs;
    u32 nslots, nentries, used_slots, used_entries;
    u64 clears;
} TT;

/* The arrays of a big table on huge pages where the system gives them on request (Linux's
   transparent huge pages in "madvise" mode): a probe's reads are far apart, and with pages
   of 4 KiB nearly every one of them misses the TLB as well as the cache. A small table (a
   Pyramid solver's 8 MiB) keeps small pages: it is not worth the first touch of 2 MiB pages. */
#define HUGE_FROM ((size_t)64 << 20)

static void *huge_alloc(size_t bytes, int huge_pages) {
    if (!huge_pages) return malloc(bytes);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)1 << 21;
    size_t size = (bytes + huge - 1) & ~(huge - 1);
    void *p = aligned_alloc(huge, size);
    if (p) madvise(p, size, MADV_HUGEPAGE);
    return p;
#else
    return malloc(bytes);
#endif
}

static int tt_init(TT *tt, size_t bytes) {
    u32 nslots = 1u << 16;
    while ((size_t)nslots * 2 * sizeof(Slot) * 8 < bytes && nslots < (1u << 24)) nslots *= 2;
    size_t rest = bytes > (size_t)nslots * sizeof(Slot) ? bytes - (size_t)nslots * sizeof(Slot) : 0;
    u32 nentries = (u32)(rest / (sizeof(Entry) + sizeof(u32)));
    if (nentries < 4096) nentries = 4096;
    int huge = bytes >= HUGE_FROM;
    tt->slots = huge_alloc((size_t)nslots * sizeof(Slot), huge);
    if (tt->slots) memset(tt->slots, 0, (size_t)nslots * sizeof(Slot));
    tt->entries = huge_alloc((size_t)nentries * sizeof(Entry), huge);
    tt->sigs = huge_alloc((size_t)nentries * sizeof(u32), huge);
    if (!tt->slots || !tt->entries || !tt->sigs) {
        free(tt->slots);
        free(tt->entries);
        free(tt->sigs);
        tt->slots = NULL;
        tt->entries = NULL;
        tt->sigs = NULL;
        return -1;
    }
    tt->nslots = nslots;
    tt->nentries = nentries;
    tt->used_slots = tt->used_entries = 0;
    tt->clears = 0;
    return 0;
}

static void tt_clear(TT *tt) {
    memset(tt->slots, 0, (size_t)tt->nslots * sizeof(Slot));
    tt->used_slots = tt->used_entries = 0;
}

static void tt_free(TT *tt) {
    free(tt->slots);
    free(tt->entries);
    free(tt->sigs);
    tt->slots = NULL;
    tt->entries = NULL;
    tt->sigs = NULL;
}

/* The summary of owners: the owners of the top three live cards of each suit, six bits a
   suit (24 bits). */
static inline u32 top_three(const u32 v[4]) {
    return (v[0] & 63) | (v[1] & 63) << 6 | (v[2] & 63) << 12 | (v[3] & 63) << 18;
}

/* An entry's summary: top_three of its owners, and in the high byte how many of those three
   cards it needs in each suit (two bits a suit); sig_mask[that byte] the summary bits they
   are. */
static u32 sig_mask[256];
/* for four summaries at a time: a nibble of that byte (two suits) to the low and high bytes of
   its twelve bits of mask */
static uint8_t nib_mask_lo[16], nib_mask_hi[16];

static void init_sig_mask(void) {
    for (u32 c = 0; c < 256; c++) {
        u32 m = 0;
        for (int su = 0; su < 4; su++) m |= kmask((c >> (2 * su)) & 3) << (6 * su);
        sig_mask[c] = m;
        if (c < 16) {
            nib_mask_lo[c] = (uint8_t)(m & 0xFF);
            nib_mask_hi[c] = (uint8_t)((m >> 8) & 0xFF);
        }
    }
}

/* The last index j <= i of the summaries sigs[0..i] (one a unit) that agrees with the
   position's top_three pos where the entry needs, or -1. With SSSE3 (x86-64-v2) four at a
   time: the mask of each summary's byte of counts looked up a nibble (two suits) at a time. */
static inline int scan_sigs(const u32 *sigs, int i, u32 pos) {
#if SIMD_SCAN
    const __m128i tlo = _mm_loadu_si128((const __m128i *)nib_mask_lo);
    const __m128i thi = _mm_loadu_si128((const __m128i *)nib_mask_hi);
    const __m128i nib = _mm_set1_epi32(15), pv = _mm_set1_epi32((int)pos);
    const __m128i zero = _mm_setzero_si128();
    while (i >= 3) {
        __m128i v = _mm_loadu_si128((const __m128i *)(sigs + i - 3));
        __m128i code = _mm_srli_epi32(v, 24);
        __m128i a = _mm_and_si128(code, nib), b = _mm_srli_epi32(code, 4);
        __m128i ma = _mm_or_si128(_mm_shuffle_epi8(tlo, a),
                                  _mm_slli_epi32(_mm_shuffle_epi8(thi, a), 8));
        __m128i mb = _mm_or_si128(_mm_shuffle_epi8(tlo, b),
                                  _mm_slli_epi32(_mm_shuffle_epi8(thi, b), 8));
        __m128i m = _mm_or_si128(ma, _mm_slli_epi32(mb, 12));
        __m128i t = _mm_and_si128(_mm_xor_si128(v, pv), m);
        int bits = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(t, zero)));
        if (bits) return i - 3 + (31 - __builtin_clz((unsigned)bits));
        i -= 4;
    }
#endif
    for (; i >= 0; i--) {
        u32 sig = sigs[i];
        if (!((pos ^ sig) & sig_mask[sig >> 24])) return i;
    }
    return -1;
}

/* The first index j >= i below count whose summary (one an entry, every 1 << wide units)
   equals sig, or -1: a store's search for its own pattern, four at a time (of two-unit
   entries, the even summaries of eight). */
static inline int find_sig(const u32 *sigs, int i, int count, int wide, u32 sig) {
#if SIMD_SCAN
    const __m128i want = _mm_set1_epi32((int)sig);
    for (; i + 3 < count; i += 4) {
        const float *at = (const float *)(sigs + (i << wide));
        __m128 v = _mm_loadu_ps(at);
        if (wide) v = _mm_shuffle_ps(v, _mm_loadu_ps(at + 4), _MM_SHUFFLE(2, 0, 2, 0));
        int bits = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(v), want)));
        if (bits) return i + __builtin_ctz((unsigned)bits);
    }
#endif
    for (; i < count; i++)
        if (sigs[i << wide] == sig) return i;
    return -1;
}

/* In a slot of the top cards' owners (not WILD_CODE) every entry needs the top card of each
   live suit and the slot names its owner, so there (skip = 1) the summary is that of the next
   three cards of each suit. */
static inline u32 entry_sig(const u32 own[4], uint16_t ks, int skip) {
    u32 code = 0;
    for (int su = 0; su < 4; su++) {
        int k = (int)((ks >> (4 * su)) & 15) - skip;
        if (k < 0) k = 0;
        code |= (u32)(k < 3 ? k : 3) << (2 * su);
    }
    if (skip) {
        u32 v[4] = {own[0] >> 2, own[1] >> 2, own[2] >> 2, own[3] >> 2};
        return top_three(v) | code << 24;
    }
    return top_three(own) | code << 24;
}

static inline u32 tt_hash(u64 key, int code, u32 nslots) {
    u64 h = key ^ ((u64)(code + 1) * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb3fe1a85ec53ULL;
    h ^= h >> 33;
    return (u32)h & (nslots - 1);
}

/* Tricks left at a key's positions: the cards of player 0 (every hand holds as many at a
   trick start). */
static inline int key_tricks(u64 key) {
    int t = 0;
    for (int su = 0; su < 4; su++) t += (int)((key >> (4 * su)) & 15);
    return t;
}

/* The entries of a key (leader and suit lengths) are split by the owners of the top live card
   of each suit: an entry that needs the top card of every suit that has live cards goes under
   those owners, the others under one code of their own (WILD_CODE), so that a probe reads the
   entries of its owners and the others, not every entry of the key. A slot's code: the leader,
   and the owners (two bits a suit, 0 for a suit with no live card) or WILD_CODE. */
#define WILD_CODE (1 << 10)

/* A key is split only once its WILD_CODE slot, where every entry goes until then, holds
   SPLIT_AT entries: a probe of a smaller key reads one slot. 512 rather than 64 (or every
   key, as before): deal 43 of the bench 232.5 M positions instead of 238.9 M (270.8 M). */
#ifndef SPLIT_AT
#define SPLIT_AT 512
#endif

/* A probe that finds no entry of its position takes as its hint the best lead of the first
   entry it read whose summary agreed (a position near it): measured 117.6 M to 103.3 M
   positions on deal 43's no-trump. */
#ifndef NEAR_HINT
#define NEAR_HINT 1
#endif

/* The best lead of an entry of the position itself that does not settle the probe (its bounds
   come from a search for another target) is not a hint: ordering by the near position's, or
   by the static weights alone, searches less (deal 43's no-trump 83.7 M positions instead of
   87.9 M, five typical deals 36.4 M instead of 37.5 M). 1 takes it, before the near one. */
#ifndef EXACT_HINT
#define EXACT_HINT 0
#endif

static inline int tt_code(int leader, const u32 own[4]) {
    return leader | (int)((own[0] & 3) | (own[1] & 3) << 2 | (own[2] & 3) << 4 | (own[3] & 3) << 6)
                        << 2;
}

static int slot_by_block(const void *a, const void *b) {
    int32_t x = ((const Slot *)a)->block, y = ((const Slot *)b)->block;
    return (x > y) - (x < y);
}

/* A full table packs the entries of its keys (a key's block doubles as it grows, leaving the
   old block behind: about half the table when it fills), and if that leaves more than
   PACK_NUM / PACK_DEN of it in use, drops, in the keys of at most UNHIT_UPTO tricks left,
   the entries that settled no probe since the last collection (COLLECT_UNHIT), then, if that
   is not enough, the keys with the fewest tricks left (the cheapest to search again), until
   what is kept fills at most KEEP_NUM / KEEP_DEN of its entries and slots; it is emptied
   whole only when nothing can be kept. Five eighths rather than half: 1,119 M to 1,077 M
   positions on the bench's heavy deals 4, 18 and 43. */
#ifndef PACK_NUM
#define PACK_NUM 3
#endif
#ifndef PACK_DEN
#define PACK_DEN 4
#endif
#ifndef KEEP_NUM
#define KEEP_NUM 5
#endif
#ifndef KEEP_DEN
#define KEEP_DEN 8
#endif
#ifndef COLLECT_UNHIT
#define COLLECT_UNHIT 1
#endif
/* 9 rather than every key: 1,077 M to 1,064 M positions on deals 4, 18 and 43 (the entries of
   10 tricks left and more cost the most to search again) */
#ifndef UNHIT_UPTO
#define UNHIT_UPTO 9
#endif

/* The entries of a key a collection keeps (all, or those that settled a probe). */
static inline u32 kept_count(const TT *tt, const Slot *sl) {
#if COLLECT_UNHIT
    if (key_tricks(sl->key) <= UNHIT_UPTO) {
        u32 k = 0;
        const Entry *e = &tt->entries[sl->block];
        for (u32 i = 0; i < sl->count; i++) k += e[i << sl->wide].hits != 0;
        return k;
    }
#endif
    return sl->count;
}

/* The block (in entries) of a key keeping k entries: its capacity, halved while it holds
   them, but never below 4. */
static inline u32 kept_cap(const Slot *sl, u32 k) {
    u32 cap = sl->cap;
    while (cap > 4 && cap / 2 >= k) cap /= 2;
    return cap;
}

static void tt_collect(TT *tt) {
    tt->clears++;
    u64 entries_by[17] = {0}, slots_by[17] = {0};
    u32 used = 0;
    u64 all_e = 0, all_s = 0;
    for (u32 i = 0; i < tt->nslots; i++) {
        Slot *sl = &tt->slots[i];
        if (!sl->leader) continue;
        if (sl->block >= 0 && sl->count) {
            all_e += (u64)kept_cap(sl, sl->count) << sl->wide;
            all_s++;
        }
    }
    int pack_only = all_e * PACK_DEN <= (u64)tt->nentries * PACK_NUM &&
                    all_s * PACK_DEN * 4 <= (u64)tt->nslots * 3 * PACK_NUM;
    for (u32 i = 0; i < tt->nslots; i++) {
        Slot *sl = &tt->slots[i];
        if (!sl->leader) continue;
        int t = key_tricks(sl->key);
        if (t > 16) t = 16;
        u32 k = sl->block < 0 ? 0 : pack_only ? sl->count : kept_count(tt, sl);
        /* the ring (the next entry to overwrite) stands for the count while a key is full;
           here it records the entries kept */
        sl->ring = (uint16_t)k;
        if (!k) continue;
        entries_by[t] += (u64)kept_cap(sl, k) << sl->wide;
        slots_by[t]++;
        used++;
    }
    u64 live_e = 0;
    for (int t = 0; t <= 16; t++) live_e += entries_by[t];
    u64 freed_e = 0, freed_s = 0;
    int drop = 0; /* keys with at most drop tricks left go */
    while (!pack_only && drop < 16 && ((live_e - freed_e) * KEEP_DEN > (u64)tt->nentries * KEEP_NUM ||
                         (used - freed_s) * KEEP_DEN * 4 > (u64)tt->nslots * 3 * KEEP_NUM)) {
        freed_e += entries_by[drop];
        freed_s += slots_by[drop];
        drop++;
    }
    drop--;
    u32 kept = 0;
    Slot *keep = malloc((size_t)(used - freed_s + 1) * sizeof(Slot));
    if (!keep || drop >= 15) {
        free(keep);
        tt_clear(tt);
        return;
    }
    for (u32 i = 0; i < tt->nslots; i++) {
        const Slot *sl = &tt->slots[i];
        if (sl->leader && sl->ring && key_tricks(sl->key) > drop) keep[kept++] = *sl;
    }
    qsort(keep, kept, sizeof(Slot), slot_by_block);
    /* packed in the order of the blocks, each to an address no higher than its own, the
       entries of a key in their order (the probe reads the newest first) */
    u32 at = 0;
    for (u32 i = 0; i < kept; i++) {
        Slot *sl = &keep[i];
        const int w = sl->wide;
        u32 k = sl->ring;
        if (k == sl->count) {
            if ((u32)sl->block != at) {
                memmove(&tt->entries[at], &tt->entries[sl->block],
                        ((size_t)sl->count << w) * sizeof(Entry));
                memmove(&tt->sigs[at], &tt->sigs[sl->block], ((size_t)sl->count << w) * sizeof(u32));
            }
        } else {
            u32 j = 0;
            for (u32 e = 0; e < sl->count; e++) {
                u32 from = (u32)sl->block + (e << w);
                if (!tt->entries[from].hits) continue;
                u32 to = at + (j << w);
                for (int u = 0; u <= w; u++) {
                    tt->entries[to + u] = tt->entries[from + u];
                    tt->sigs[to + u] = tt->sigs[from + u];
                }
                j++;
            }
        }
        if (!pack_only)
            for (u32 e = 0; e < k; e++) tt->entries[at + (e << w)].hits >>= 1;
        sl->block = (int32_t)at;
        sl->cap = (uint16_t)kept_cap(sl, k);
        sl->count = (uint16_t)k;
        sl->ring = 0;
        at += (u32)sl->cap << w;
    }
    tt_clear(tt);
    tt->used_entries = at;
    for (u32 i = 0; i < kept; i++) {
        u32 j = tt_hash(keep[i].key, keep[i].leader - 1, tt->nslots);
        while (tt->slots[j].leader) j = (j + 1) & (tt->nslots - 1);
        tt->slots[j] = keep[i];
    }
    tt->used_slots = kept;
    free(keep);
}

static Slot *tt_find(TT *tt, u64 key, int code, int create, int wide) {
    u32 i = tt_hash(key, code, tt->nslots);
    for (;;) {
        Slot *sl = &tt->slots[i];
        if (sl->leader == 0) {
            if (!create) return NULL;
            if (tt->used_slots * 4 >= tt->nslots * 3) return NULL;
            sl->leader = (uint16_t)(code + 1);
            sl->wide = (uint8_t)wide;
            sl->key = key;
            sl->block = -1;
            sl->count = sl->cap = sl->ring = 0;
            sl->split = 0;
            tt->used_slots++;
            return sl;
        }
        if (sl->key == key && sl->leader == code + 1) return sl;
        i = (i + 1) & (tt->nslots - 1);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Search */

typedef struct {
    int n, trump, flags, tricks;
    u64 hand[MAXP];
    int weight[MAXP];
    int maxside[MAXP];
    int wmax;
    /* the trick being played */
    int leader, ncards;
    int tcard[MAXP];
    u64 nodes;
    TT *tt;
    u64 key;       /* lengths_key of the hands, kept up to date */
    u64 live;      /* the cards in the hands, kept up to date */
    u32 own[4];    /* owners of the live cards in hands, kept up to date */
    int hint;      /* a lead the table suggests for the node being searched, or -1 */
    int best_lead; /* the lead that decided the last lead node, or -1 */
    int killer[17][2]; /* per tricks left and side of the leader: the last lead that cut */
    int killer2[17][2]; /* and the one before it (another card) */
    u64 max_nodes; /* 0: no limit; else the search gives up past this many positions */
    double deadline; /* 0: none; else the search gives up past this monotonic time (s) */
    u64 next_check;  /* the node count at which the clock is read again */
    int aborted;
} S;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Whether the search has gone past its budget of positions or time; the clock is read every
   few thousand positions, so the time limit is kept within a few milliseconds. */
static inline int over_budget(S *s) {
    if (s->max_nodes && s->nodes > s->max_nodes) return 1;
    if (s->deadline > 0 && s->nodes >= s->next_check) {
        s->next_check = s->nodes + 8192;
        if (now_seconds() > s->deadline) return 1;
    }
    return 0;
}

static inline u64 live_cards(const S *s) { return s->live; }

/* The player k places after the leader (k < 2n): a subtraction, not a division. */
static inline int seat(const S *s, int k) {
    int p = s->leader + k;
    return p >= s->n ? p - s->n : p;
}

/* The winner (place in the trick) of the cards tcard[0..k-1]. */
static inline int winning_place(const S *s, int k) {
    int best = 0;
    for (int i = 1; i < k; i++) {
        int c = s->tcard[i], b = s->tcard[best];
        if (SUIT(c) == SUIT(b)) {
            if (c > b) best = i;
        } else if (SUIT(c) == s->trump) {
            best = i;
        }
    }
    return best;
}

/* Suit lengths of every hand, a nibble each. */
static inline u64 lengths_key(const S *s) {
    u64 key = 0;
    for (int p = 0; p < s->n; p++)
        for (int su = 0; su < 4; su++)
            key |= (u64)popc(s->hand[p] & SUITMASK(su)) << (4 * (p * 4 + su));
    return key;
}

/* The owners of the live cards of each suit, highest first, two bits each. */
static inline void owners(const S *s, u32 own[4]) {
    for (int su = 0; su < 4; su++) {
        u32 o = 0;
        int place = 0;
        u64 all = 0;
        for (int p = 0; p < s->n; p++) all |= s->hand[p] & SUITMASK(su);
        while (all) {
            int c = top_bit(all);
            all &= ~BIT(c);
            int p = 0;
            while (!(s->hand[p] & BIT(c))) p++;
            o |= (u32)p << (2 * place);
            place++;
        }
        own[su] = o;
    }
}

/* The cards of a pattern: the top k live cards of each suit. */
static inline u64 pattern_cards(u64 live, uint16_t ks) {
    u64 rel = 0;
    for (int su = 0; su < 4; su++) {
        int k = (ks >> (4 * su)) & 15;
        u64 ls = live & SUITMASK(su);
        while (k-- > 0 && ls) {
            int c = top_bit(ls);
            rel |= BIT(c);
            ls &= ~BIT(c);
        }
    }
    return rel;
}

/* Close rel upwards within each suit (every live card above a relevant one) and write the
   pattern masks. */
static inline u64 close_rel(u64 rel, u64 live, u32 mask[4]) {
    u64 out = 0;
    for (int su = 0; su < 4; su++) {
        u64 ls = live & SUITMASK(su);
        u64 r = rel & ls;
        if (!r) {
            mask[su] = 0;
            continue;
        }
        int lo = low_bit(r);
        u64 up = ls & ~(BIT(lo) - 1);
        out |= up;
        int k = popc(up);
        mask[su] = kmask(k);
    }
    return out;
}

static void tt_store(S *s, int lb, int ub, u64 rel, int best_card) {
    TT *tt = s->tt;
    u64 live = live_cards(s);
    u32 mask[4], own[4];
    close_rel(rel, live, mask);
    for (int su = 0; su < 4; su++) own[su] = s->own[su] & mask[su];
    u64 key = s->key;
    int wide = popc(live) >= WIDE_FROM;
    int code = s->leader | WILD_CODE;
    Slot *sl = tt_find(tt, key, code, 1, wide);
    if (sl && sl->split) {
        int all = 1;
        for (int su = 0; su < 4; su++)
            if (!mask[su] && (live & SUITMASK(su))) all = 0;
        if (all) {
            code = tt_code(s->leader, s->own);
            sl = tt_find(tt, key, code, 1, wide);
        }
    }
    if (!sl) {
        tt_collect(tt);
        sl = tt_find(tt, key, code, 1, wide);
    }
    uint8_t best = 0xFF;
    if (best_card >= 0) {
        int su = SUIT(best_card);
        u64 above = live & SUITMASK(su) & ~(BIT(best_card + 1) - 1);
        best = (uint8_t)((su << 4) | popc(above));
    }
    Entry *block = sl->block >= 0 ? &tt->entries[sl->block] : NULL;
    const u32 *sigs = sl->block >= 0 ? &tt->sigs[sl->block] : NULL;
    uint16_t ks = ks_of(mask);
    u32 sig = entry_sig(own, ks, !(code & WILD_CODE));
    u64 phi, plo = pack_own(own, ks, &phi);
    for (int i = 0; (i = find_sig(sigs, i, sl->count, wide, sig)) >= 0; i++) {
        Entry *e = &block[i << wide];
        if (e->ks == ks && e->own == plo && (!wide || e[1].own == phi)) {
            if (lb > e->lb) e->lb = (uint8_t)lb;
            if (ub < e->ub) e->ub = (uint8_t)ub;
            if (best != 0xFF) e->best = best;
            return;
        }
    }
    Entry *e;
    if (sl->count < sl->cap) {
        e = &block[sl->count++ << wide];
    } else if (sl->cap < MAX_PER_KEY) {
        u32 cap = sl->cap ? 2u * sl->cap : 4u;
        if (tt->used_entries + (cap << wide) > tt->nentries) {
            tt_collect(tt);
            sl = tt_find(tt, key, code, 1, wide);
            if (sl->block >= 0 && sl->count < sl->cap) {
                /* the key was kept with room to spare */
                block = &tt->entries[sl->block];
                cap = 0;
            } else {
                /* the key was dropped (a new slot), or kept full: a new block */
                if (sl->block < 0) sl->count = sl->cap = sl->ring = 0;
                cap = sl->cap ? 2u * sl->cap : 4u;
                if (cap > MAX_PER_KEY) cap = MAX_PER_KEY;
                if (tt->used_entries + (cap << wide) > tt->nentries) {
                    tt_clear(tt);
                    sl = tt_find(tt, key, code, 1, wide);
                    cap = 4;
                }
            }
        }
        if (!cap) {
            e = &block[sl->count++ << wide];
            goto fill;
        }
        int32_t nb = (int32_t)tt->used_entries;
        tt->used_entries += cap << wide;
        if (sl->count) {
            memcpy(&tt->entries[nb], &tt->entries[sl->block],
                   ((size_t)sl->count << wide) * sizeof(Entry));
            memcpy(&tt->sigs[nb], &tt->sigs[sl->block], ((size_t)sl->count << wide) * sizeof(u32));
        }
        sl->block = nb;
        sl->cap = (uint16_t)cap;
        e = &tt->entries[nb + (sl->count++ << wide)];
    } else {
        e = &block[sl->ring << wide];
        sl->ring = (uint16_t)((sl->ring + 1) % sl->cap);
    }
fill:
    if ((code & WILD_CODE) && sl->count >= SPLIT_AT) sl->split = 1;
    tt->sigs[e - tt->entries] = sig;
    e->ks = ks;
    e->own = plo;
    if (wide) e[1].own = phi;
    e->lb = (uint8_t)lb;
    e->ub = (uint8_t)ub;
    e->best = best;
    e->hits = 0;
}

/* Probe the entries of one slot: 1 or 0 when an entry settles "at least need", else -1;
   *hint_e gets the first entry of the position with a best lead, if it has none yet. */
static inline int probe_slot(S *s, Slot *sl, int need, u64 *rel, const Entry **hint_e,
                             const Entry **near_e) {
    TT *tt = s->tt;
    const u32 *own = s->own;
    const Entry *block = &tt->entries[sl->block];
    const u32 *sigs = &tt->sigs[sl->block];
    u32 pos; /* as entry_sig */
    if (sl->leader - 1 < WILD_CODE) {
        u32 v[4] = {own[0] >> 2, own[1] >> 2, own[2] >> 2, own[3] >> 2};
        pos = top_three(v);
    } else {
        pos = top_three(own);
    }
    const int wide = sl->wide;
    if (sl->count) {
        /* The newest entries, read first (and where an entry that settles a probe is moved),
           are fetched while their summaries are scanned: the entry's miss overlaps the
           summaries' instead of following it. Four lines of entries (the newest 12 to 16):
           two lines or seven were slower on deal 43 (eleventh set). */
        int last = (sl->count - 1) << wide;
        __builtin_prefetch(&block[last]);
        for (int k = 3; k <= 11 && k <= last; k += 4) __builtin_prefetch(&block[last - k]);
    }
    for (int i = sl->count - 1; i >= 0; i--) {
        if (!wide) {
#if DDS_STATS
            int from = i;
#endif
            i = scan_sigs(sigs, i, pos);
#if DDS_STATS
            st_sigs += (u64)(from - (i < 0 ? -1 : i));
#endif
            if (i < 0) break;
        } else {
            u32 sig = sigs[i << 1];
#if DDS_STATS
            st_sigs++;
#endif
            if ((pos ^ sig) & sig_mask[sig >> 24]) continue;
        }
        const Entry *e = &block[i << wide];
#if DDS_STATS
        st_entries++;
#endif
        u32 ks = e->ks;
        if (wide) {
            u64 hi, lo = pack_own(own, ks, &hi);
            if (lo != e->own || hi != e[1].own) {
                if (!*near_e && e->best != 0xFF) *near_e = e;
                continue;
            }
        } else if (pack_own_narrow(own, ks) != e->own) {
            if (!*near_e && e->best != 0xFF) *near_e = e;
            continue;
        }
        if (e->lb >= need || e->ub < need) {
#if DDS_STATS
            st_hits++;
#endif
            int res = e->lb >= need;
            *rel = pattern_cards(live_cards(s), e->ks);
            if (((Entry *)e)->hits < 255) ((Entry *)e)->hits++;
#if PROBE_MTF
            /* swapped with the entry the scan reads first */
            if (i + 1 < sl->count) {
                int j = sl->count - 1;
                Entry *blk = &tt->entries[sl->block];
                u32 *sg = &tt->sigs[sl->block];
                for (int u = 0; u <= wide; u++) {
                    int a = (i << wide) + u, b = (j << wide) + u;
                    Entry te = blk[a];
                    blk[a] = blk[b];
                    blk[b] = te;
                    u32 ts = sg[a];
                    sg[a] = sg[b];
                    sg[b] = ts;
                }
            }
#endif
            return res;
        }
        if (EXACT_HINT && !*hint_e && e->best != 0xFF) *hint_e = e;
    }
    return -1;
}

/* Probe: 1 = success (value >= need), 0 = failure, -1 = unknown. *rel gets the cards of the
   matching entry; *hint a lead to search first (EXACT_HINT, NEAR_HINT). The entries under
   the position's owners of the top cards are read first, then those under WILD_CODE. */
static int tt_probe(S *s, int need, u64 *rel, int *hint) {
    TT *tt = s->tt;
    const Entry *he = NULL, *near = NULL;
    *hint = -1;
#if DDS_STATS
    st_probes++;
#endif
    Slot *base = tt_find(tt, s->key, s->leader | WILD_CODE, 0, 0);
    if (base) {
        if (base->split) {
            Slot *sl = tt_find(tt, s->key, tt_code(s->leader, s->own), 0, 0);
            if (sl && sl->count) {
                int r = probe_slot(s, sl, need, rel, &he, &near);
                if (r >= 0) return r;
            }
        }
        if (base->count) {
            int r = probe_slot(s, base, need, rel, &he, &near);
            if (r >= 0) return r;
        }
    }
#if NEAR_HINT
    if (!he) he = near;
#endif
    if (he) {
        int su = he->best >> 4, place = he->best & 15;
        u64 ls = live_cards(s) & SUITMASK(su);
        while (place-- > 0 && ls) ls &= ~BIT(top_bit(ls));
        if (ls) {
            int c = top_bit(ls);
            if (s->hand[s->leader] & BIT(c)) *hint = c;
        }
    }
    return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* Moves */

typedef struct {
    int card;  /* the card searched: the lowest of its group */
    int top;   /* the group's highest card */
    int score; /* ordering: higher first */
} Move;

/* The legal cards of player p to the current trick; *undertrump_seen when the rule against
   under-trumping was consulted (the trump ranks then matter). */
static u64 legal_cards(const S *s, int p, int *undertrump_seen) {
    u64 h = s->hand[p];
    if (s->ncards == 0) return h;
    int led = SUIT(s->tcard[0]);
    u64 follow = h & SUITMASK(led);
    if (follow) return follow;
    if (s->trump < 0) return h;
    u64 trumps = h & SUITMASK(s->trump);
    if (!trumps) return h;
    if (s->flags & FLAG_MUST_TRUMP) return trumps;
    if (s->flags & FLAG_NO_UNDERTRUMP) {
        int top = -1;
        for (int i = 0; i < s->ncards; i++)
            if (SUIT(s->tcard[i]) == s->trump && s->tcard[i] > top) top = s->tcard[i];
        if (top >= 0) {
            *undertrump_seen = 1;
            u64 lower = trumps & (BIT(top) - 1);
            u64 others = h & ~lower;
            if (others) return others;
        }
    }
    return h;
}

static inline int same_side(const S *s, int a, int b) { return s->maxside[a] == s->maxside[b]; }

/* Group the legal cards into runs of equivalent cards and give each a score. */
static int gen_moves(const S *s, int p, u64 legal, Move *mv, int hint) {
    u64 live = live_cards(s);
    int n = s->n, nm = 0;
    int pos = s->ncards;
    int wplace = pos ? winning_place(s, pos) : -1;
    int wcard = pos ? s->tcard[wplace] : -1;
#if GROUP_ACROSS_TRICK
    /* two cards of the hand with only cards of the trick between them are equivalent when
       both lose to the trick's winning card (the trick's cards are gone after it): only the
       winning card splits them */
    if (pos) live |= BIT(wcard);
#else
    for (int i = 0; i < s->ncards; i++) live |= BIT(s->tcard[i]);
#endif
    int wplayer = pos ? seat(s, wplace) : -1;
    int partner_wins = pos ? same_side(s, wplayer, p) : 0;
    int led = pos ? SUIT(s->tcard[0]) : -1;
    /* the best cards still to come in the suit led, by opponents and by partners, and the
       best trump of a player still to come who is void in it */
    int opp_top = -1, part_top = -1, opp_ruff = -1, side_sure = 0;
    int opp_second = -1; /* the second card of the suit led of the opponent holding opp_top */
    if (pos) {
        for (int k = pos + 1; k < n; k++) {
            int q = seat(s, k);
            u64 qs = s->hand[q] & SUITMASK(led);
            int best = qs ? top_bit(qs) : -1;
            if (same_side(s, q, p)) {
                if (best > part_top) part_top = best;
            } else {
                if (best > opp_top) {
                    opp_top = best;
                    u64 rest = qs & ~BIT(best);
                    opp_second = rest ? top_bit(rest) : -1;
                }
                if (!qs && s->trump >= 0 && led != s->trump) {
                    u64 qt = s->hand[q] & SUITMASK(s->trump);
                    if (qt && top_bit(qt) > opp_ruff) opp_ruff = top_bit(qt);
                }
            }
        }
        if (partner_wins) {
            if (SUIT(wcard) == led)
                side_sure = wcard > opp_top && opp_ruff < 0;
            else
                side_sure = wcard > opp_ruff;
        }
    }
    for (int su = 0; su < 4; su++) {
        u64 hs = legal & SUITMASK(su);
        if (!hs) continue;
        u64 others = live & SUITMASK(su) & ~s->hand[p];
        int len = popc(s->hand[p] & SUITMASK(su));
        /* the highest live card of the suit held by any hand, and its owner */
        u64 suit_live = live_cards(s) & SUITMASK(su);
        int topc = top_bit(suit_live);
        int topowner = 0;
        /* at the lead: whether an opponent void in the suit can ruff it, and the lengths */
        int can_ruff = 0, opp_len = 0, side_len = 0, answer = 0;
        if (pos == 0) {
            while (!(s->hand[topowner] & BIT(topc))) topowner++;
            for (int q = 0; q < n; q++) {
                u64 qs = s->hand[q] & SUITMASK(su);
                if (same_side(s, q, p)) {
                    side_len += popc(qs);
                } else {
                    int lq = popc(qs);
                    opp_len += lq;
                    answer += lq ? lq : s->tricks + 1;
                    if (!qs && s->trump >= 0 && su != s->trump &&
                        (s->hand[q] & SUITMASK(s->trump)))
                        can_ruff = 1;
                }
            }
        }
        while (hs) {
            int hi = top_bit(hs);
            int lo = hi;
            hs &= ~BIT(hi);
            while (hs) {
                int nx = top_bit(hs);
                u64 between = (BIT(lo) - 1) & ~(BIT(nx + 1) - 1);
                if (others & between) break;
                lo = nx;
                hs &= ~BIT(nx);
            }
            int r = lo & 15;
            int sc;
            if (pos == 0) {
                if (hi == topc) {
                    sc = 60 - (can_ruff ? 45 : 0) + (su == s->trump ? 5 : 0);
                } else if (same_side(s, topowner, p) && topowner != p) {
                    sc = 50 - r - (can_ruff ? 30 : 0);
                } else {
                    sc = 25 - r + (side_len > opp_len ? 4 : 0) - (can_ruff ? 10 : 0);
                    if (su == s->trump) sc += side_len > opp_len ? 6 : -6;
                }
                if (lo == hint) sc += 100;
                /* a lead the opponents can answer with few cards makes a smaller tree (a void
                   opponent may play anything) */
                sc -= answer * LEAD_BRANCH / 8;
                {
                    /* the last lead that cut at this depth, if the leader holds it */
                    int kc = s->killer[s->tricks][s->maxside[p]];
                    if (kc >= lo && kc <= hi && (s->hand[p] & BIT(kc))) sc += KILLER;
                    kc = s->killer2[s->tricks][s->maxside[p]];
                    if (kc >= lo && kc <= hi && (s->hand[p] & BIT(kc))) sc += KILLER2;
                }
            } else if (su == led) {
                int h = hi;
                if (SUIT(wcard) != led) {
                    sc = 30 - r; /* ruffed already: keep the good cards */
                } else if (side_sure) {
                    sc = 60 - r;
                } else if (h > wcard && h > opp_top && opp_ruff < 0) {
                    sc = 90 - r; /* the cheapest card that surely wins */
                } else if (part_top > wcard && part_top > opp_top && opp_ruff < 0) {
                    /* partner, still to play, surely wins it: low, before even a sure winner
                       of one's own (measured as 70, below the sure winner: 106.0 M to 87.9 M
                       positions on deal 43's no-trump, 44.2 M to 37.5 M on five typical deals) */
                    sc = 95 - r;
                } else if (h > wcard) {
                    sc = 55 - r; /* a card that wins for now, the cheapest first */
                    if (pos == n - 2 && lo > opp_second) sc += FORCE_TOP;
                } else {
                    sc = 40 - r;
                }
            } else if (su == s->trump) {
                int toptrump = SUIT(wcard) == s->trump ? wcard : -1;
                if (side_sure)
                    sc = -r;
                else if (hi < toptrump)
                    sc = 2 - r;
                else if (opp_ruff < hi)
                    sc = 85 - r;
                else
                    sc = 45 - r;
            } else {
                /* a discard: low cards of long suits first, keep winners */
                sc = 20 + 2 * len - r - (hi == topc ? 15 : 0);
            }
            mv[nm].card = lo;
            mv[nm].top = hi;
            mv[nm].score = sc;
            nm++;
        }
    }
    /* insertion sort, highest score first */
    for (int i = 1; i < nm; i++) {
        Move m = mv[i];
        int j = i - 1;
        while (j >= 0 && mv[j].score < m.score) {
            mv[j + 1] = mv[j];
            j--;
        }
        mv[j + 1] = m;
    }
    return nm;
}

/* Lower the relevance threshold of a suit so that a searched group is never split by it. */
static inline u64 fix_groups(u64 rel, const Move *mv, int nm) {
    for (int i = 0; i < nm; i++) {
        if (mv[i].top == mv[i].card) continue;
        int su = SUIT(mv[i].card);
        u64 r = rel & SUITMASK(su);
        if (r && top_bit(r) >= 0) {
            /* relevant cards are closed upwards later, so the lowest relevant card is the
               threshold; a group reaching it or above must be inside it */
            int lo = low_bit(r);
            if (mv[i].top >= lo) rel |= BIT(mv[i].card);
        }
    }
    return rel;
}

/* Take card c from player p's hand, keeping the key and the owners up to date. */
static inline void take(S *s, int p, int c) {
    int su = SUIT(c);
    u64 live = live_cards(s) & SUITMASK(su);
    int place = popc(live & ~(BIT(c + 1) - 1)); /* live cards above c */
    u32 low = (1u << (2 * place)) - 1;
    u32 o = s->own[su];
    s->own[su] = (o & low) | ((o >> 2) & ~low);
    s->hand[p] &= ~BIT(c);
    s->live &= ~BIT(c);
    s->key -= 1ULL << (4 * (p * 4 + su));
}

/* Give card c back to player p. */
static inline void give(S *s, int p, int c) {
    int su = SUIT(c);
    u64 live = live_cards(s) & SUITMASK(su);
    int place = popc(live & ~(BIT(c + 1) - 1));
    u32 low = (1u << (2 * place)) - 1;
    u32 o = s->own[su];
    s->own[su] = (o & low) | ((o << 2) & ~low & ~(3u << (2 * place))) | ((u32)p << (2 * place));
    s->hand[p] |= BIT(c);
    s->live |= BIT(c);
    s->key += 1ULL << (4 * (p * 4 + su));
}

/* Tricks the leader can cash from the top of his own hand without losing the lead: in each
   suit the run of top live cards he holds, in a side suit no more than the length of an
   opponent who could ruff. *rel gets the cards counted on. */
static inline int quick_tricks(const S *s, u64 *rel) {
    int p = s->leader, n = s->n;
    u64 h = s->hand[p];
    u64 live = live_cards(s);
    int total = 0;
    u64 used = 0;
    for (int su = 0; su < 4; su++) {
        u64 ls = live & SUITMASK(su);
        u64 hs = h & ls;
        if (!hs) continue;
        int k = 0;
        u64 run = 0;
        while (ls) {
            int c = top_bit(ls);
            if (!(hs & BIT(c))) break;
            run |= BIT(c);
            ls &= ~BIT(c);
            k++;
        }
        if (!k) continue;
        if (s->trump >= 0 && su != s->trump) {
            for (int q = 0; q < n; q++) {
                if (same_side(s, q, p)) continue;
                if (!(s->hand[q] & SUITMASK(s->trump))) continue;
                int lq = popc(s->hand[q] & SUITMASK(su));
                if (lq < k) k = lq;
            }
            if (!k) continue;
            /* the k highest cards of the run */
            u64 r = 0;
            for (int i = 0; i < k; i++) {
                int c = top_bit(run);
                r |= BIT(c);
                run &= ~BIT(c);
            }
            run = r;
        }
        total += k;
        used |= run;
    }
    *rel = used;
    return total;
}

static int search(S *s, int need, u64 *rel);

/* Sure trump tricks: a trump wins every trick it is played to unless a higher trump of
   another player falls in the same trick, and each of those beats at most one of them; so a
   player wins at least i - h tricks with his top i trumps when h trumps of the others lie
   above the lowest of them. Walking the trumps from the top, the value lies between the sure
   tricks at their players' weights and that plus the rest at the highest weight. 1 or 0 as
   soon as that settles "at least need", else -1; *rel gets the trumps walked. */
static inline int trump_bound(const S *s, int need, u64 *rel) {
    u64 lt = live_cards(s) & SUITMASK(s->trump);
    int mine[MAXP] = {0}, sure[MAXP] = {0};
    int seen = 0, lower = 0, tricks = 0;
    u64 walked = 0;
    while (lt) {
        int c = top_bit(lt);
        lt &= ~BIT(c);
        walked |= BIT(c);
        int p = 0;
        while (!(s->hand[p] & BIT(c))) p++;
        seen++;
        mine[p]++;
        int won = mine[p] - (seen - mine[p]);
        if (won > sure[p]) {
            lower += (won - sure[p]) * s->weight[p];
            tricks += won - sure[p];
            sure[p] = won;
            if (need <= lower) {
                *rel = walked;
                return 1;
            }
            if (need > lower + (s->tricks - tricks) * s->wmax) {
                *rel = walked;
                return 0;
            }
        }
    }
    return -1;
}

/* Bounds that settle a trick start without searching it: 1 or 0, else -1. */
static inline int trick_start_bounds(S *s, int need, u64 *rel) {
    int R = s->tricks;
    (void)R;
#if USE_TRUMP_BOUND
    if (s->trump >= 0) {
        int bound = trump_bound(s, need, rel);
        if (bound >= 0) {
            s->nodes++;
            return bound;
        }
    }
#endif
    if (USE_QUICK_TRICKS) {
        int p = s->leader;
        int qt = 0;
        u64 qrel = 0;
        if (s->maxside[p] && s->weight[p]) {
            qt = quick_tricks(s, &qrel);
            if (qt * s->weight[p] >= need) {
                *rel = qrel;
                s->nodes++;
                return 1;
            }
        } else if (!s->maxside[p] && !s->weight[p]) {
            qt = quick_tricks(s, &qrel);
            if ((R - qt) * s->wmax < need) {
                *rel = qrel;
                s->nodes++;
                return 0;
            }
        }
    }
    return -1;
}

/* A node at the start of a trick. */
static int search_lead(S *s, int need, u64 *rel) {
    *rel = 0;
    if (need <= 0) return 1;
    int R = s->tricks;
    if (need > R * s->wmax) return 0;
    if (R == 1) {
        /* the last trick: every player has one card left */
        int n = s->n;
        for (int k = 0; k < n; k++) s->tcard[k] = low_bit(s->hand[seat(s, k)]);
        int wp = winning_place(s, n);
        int wc = s->tcard[wp];
        for (int k = 0; k < n; k++)
            if (k != wp && SUIT(s->tcard[k]) == SUIT(wc)) *rel = BIT(wc);
        s->nodes++;
        return s->weight[seat(s, wp)] >= need;
    }
#if !BOUNDS_AFTER_PROBE
    {
        int b = trick_start_bounds(s, need, rel);
        if (b >= 0) return b;
    }
#endif
    if (R <= TT_FROM - 1) {
        /* the last tricks: searching them costs less than the table's memory traffic */
        s->hint = -1;
        return search(s, need, rel);
    }
    int hint = -1;
    int r = tt_probe(s, need, rel, &hint);
    if (r >= 0) return r;
#if BOUNDS_AFTER_PROBE
    r = trick_start_bounds(s, need, rel);
    if (r >= 0) return r;
#endif
    if (!s->aborted && over_budget(s)) s->aborted = 1;
    if (s->aborted) return 0; /* unwinding: nothing below is stored */
    s->hint = hint;
    s->best_lead = -1;
    int res = search(s, need, rel);
    if (s->aborted) return 0;
    tt_store(s, res ? need : 0, res ? R * s->wmax : need - 1, *rel, s->best_lead);
    return res;
}

/* Any node: player (leader + ncards) % n to play. */
static int search(S *s, int need, u64 *rel) {
    int n = s->n;
    int p = seat(s, s->ncards);
    int is_max = s->maxside[p];
    int under = 0;
    u64 legal = legal_cards(s, p, &under);
    Move mv[64];
    s->nodes++;
    int nm = gen_moves(s, p, legal, mv, s->ncards == 0 ? s->hint : -1);
    u64 acc = 0;
    int result = is_max ? 0 : 1;
    int cut = 0;
#if SKIP_LOW
    /* per suit: once a card searched lay below every card that mattered to its answer, the
       cards of that suit below them all (skip_below) are the same card and are not searched */
    int skip_below[4] = {-1, -1, -1, -1};
#endif
    for (int i = 0; i < nm; i++) {
        int c = mv[i].card;
        u64 crel = 0;
        int ok;
#if SKIP_LOW
        if (mv[i].top < skip_below[SUIT(c)]) continue;
#endif
        take(s, p, c);
        s->tcard[s->ncards++] = c;
        if (s->ncards == n) {
            int wp = winning_place(s, n);
            int winner = seat(s, wp);
            int wc = s->tcard[wp];
            if (s->tricks > TT_FROM) {
                /* the two slots the probe reads */
                u32 ns = s->tt->nslots;
                __builtin_prefetch(&s->tt->slots[tt_hash(s->key, tt_code(winner, s->own), ns)]);
                __builtin_prefetch(&s->tt->slots[tt_hash(s->key, winner | WILD_CODE, ns)]);
            }
            int rankwin = 0;
            for (int k = 0; k < n; k++)
                if (k != wp && SUIT(s->tcard[k]) == SUIT(wc)) rankwin = 1;
            int saved_leader = s->leader;
            int saved[MAXP];
            memcpy(saved, s->tcard, sizeof saved);
            s->leader = winner;
            s->ncards = 0;
            s->tricks--;
            ok = search_lead(s, need - s->weight[winner], &crel);
            s->tricks++;
            s->ncards = n;
            s->leader = saved_leader;
            memcpy(s->tcard, saved, sizeof saved);
            if (rankwin) crel |= BIT(wc);
        } else {
            ok = search(s, need, &crel);
        }
        s->ncards--;
        give(s, p, c);
        if (is_max ? ok : !ok) {
            result = ok;
            acc = crel;
            cut = 1;
            if (s->ncards == 0) {
                s->best_lead = c;
                if (s->killer[s->tricks][is_max] != c) {
                    s->killer2[s->tricks][is_max] = s->killer[s->tricks][is_max];
                    s->killer[s->tricks][is_max] = c;
                }
            }
            break;
        }
        acc |= crel;
#if SKIP_LOW
        {
            int su = SUIT(c);
            if (skip_below[su] < 0 && !(under && su == s->trump)) {
                u64 r = acc & SUITMASK(su);
                int t = r ? low_bit(r) : 16 * su + 16;
                if (c < t) skip_below[su] = t;
            }
        }
#endif
    }
    if (!cut) acc = fix_groups(acc, mv, nm);
    if (under && s->trump >= 0) acc |= SUITMASK(s->trump);
    *rel = acc;
    return result;
}

/* The value of the remaining play (from a trick start, or from the cards already in the
   trick), known to lie in [lo, hi]. */
static int solve_value(S *s, int lo, int hi, int guess) {
    int t = guess;
    if (t <= lo) t = lo + 1;
    if (t > hi) t = hi;
    while (lo < hi) {
        u64 rel;
#if DDS_STATS
        u64 n0 = s->nodes;
#endif
        int ok = s->ncards ? search(s, t, &rel) : search_lead(s, t, &rel);
#if DDS_STATS
        fprintf(stderr, "  need %d -> %d, %.2f M\n", t, ok, (s->nodes - n0) / 1e6);
#endif
        if (s->aborted) return -1;
        if (ok) {
            lo = t;
            t = lo + 1;
        } else {
            hi = t - 1;
            t = hi;
        }
    }
#if DDS_STATS
    fprintf(stderr, " value %d: probes %llu, sigs/probe %.1f, entries/probe %.2f, hits %.1f%%\n",
            lo, (unsigned long long)st_probes, (double)st_sigs / (st_probes + 1),
            (double)st_entries / (st_probes + 1), 100.0 * st_hits / (st_probes + 1));
    st_probes = st_sigs = st_entries = st_hits = 0;
#endif
    return lo;
}

/* ---------------------------------------------------------------------------------------- */
/* Python object: a solver that keeps its table between calls */

typedef struct {
    PyObject_HEAD TT tt;
    size_t bytes;
    int busy;
    /* the rules the table was filled under; a change clears it */
    int key_n, key_trump, key_flags, key_weight[MAXP], key_maxside[MAXP];
    u64 nodes;
} SolverObject;

static int Solver_init(SolverObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"memory_mib", NULL};
    int mib = 160;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i", kwlist, &mib)) return -1;
    if (mib < 1 || mib > 65536) {
        PyErr_SetString(PyExc_ValueError, "memory_mib must be between 1 and 65536");
        return -1;
    }
    if (self->tt.slots) tt_free(&self->tt);
    self->bytes = (size_t)mib << 20;
    if (tt_init(&self->tt, self->bytes) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    self->key_n = -1;
    self->nodes = 0;
    self->busy = 0;
    return 0;
}

static void Solver_dealloc(SolverObject *self) {
    tt_free(&self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_ints(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %d values needed", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* Check the hands and the cards already in the trick, and set up the position; 0 or -1 with
   a Python error. */
static int setup_position(S *s, PyObject *hands_o, PyObject *played_o, int trump, int leader) {
    PyObject *fast = PySequence_Fast(hands_o, "hands must be a sequence of ints");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 2 || n > MAXP) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "2 to %d hands, not %zd", MAXP, n);
        return -1;
    }
    s->n = (int)n;
    for (int p = 0; p < n; p++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, p));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        s->hand[p] = v;
    }
    Py_DECREF(fast);
    int played[MAXP];
    int k = 0;
    if (played_o && played_o != Py_None) {
        fast = PySequence_Fast(played_o, "played must be a sequence of card indexes");
        if (!fast) return -1;
        k = (int)PySequence_Fast_GET_SIZE(fast);
        if (k >= n) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "at most %d cards already in the trick", (int)n - 1);
            return -1;
        }
        for (int i = 0; i < k; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return -1;
            }
            if (v < 0 || v > 63 || (v & 15) == 15) {
                Py_DECREF(fast);
                PyErr_Format(PyExc_ValueError, "card index %ld: 16 * suit + rank index 0..14", v);
                return -1;
            }
            played[i] = (int)v;
        }
        Py_DECREF(fast);
    }
    if (trump < -1 || trump > 3) {
        PyErr_Format(PyExc_ValueError, "trump %d", trump);
        return -1;
    }
    if (leader < 0 || leader >= n) {
        PyErr_Format(PyExc_ValueError, "leader %d", leader);
        return -1;
    }
    /* the players who have played to the trick hold one card fewer */
    int cards = popc(s->hand[(leader + k) % n]);
    u64 seen = 0;
    for (int p = 0; p < n; p++) {
        int place = (p - leader + (int)n) % (int)n;
        if (s->hand[p] & 0x8000800080008000ULL) {
            PyErr_SetString(PyExc_ValueError, "rank indexes are 0 to 14");
            return -1;
        }
        if (popc(s->hand[p]) != cards - (place < k ? 1 : 0)) {
            PyErr_SetString(PyExc_ValueError,
                            k ? "every hand must hold as many cards, less the one in the trick"
                              : "every hand must hold as many cards");
            return -1;
        }
        if (s->hand[p] & seen) {
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return -1;
        }
        seen |= s->hand[p];
    }
    if (cards > 16 || (k && cards < 1)) {
        PyErr_SetString(PyExc_ValueError, k ? "no card left to play" : "at most 16 tricks");
        return -1;
    }
    s->trump = trump;
    s->leader = leader;
    s->tricks = cards;
    /* each card of the trick must have been legal where it was played: put it back in its
       player's hand for the check */
    for (int i = 0; i < k; i++) {
        int p = (leader + i) % (int)n, c = played[i];
        if (seen & BIT(c)) {
            PyErr_Format(PyExc_ValueError, "card %d is both in a hand and in the trick", c);
            return -1;
        }
        seen |= BIT(c);
        s->ncards = i;
        s->hand[p] |= BIT(c);
        int under = 0;
        u64 legal = legal_cards(s, p, &under);
        s->hand[p] &= ~BIT(c);
        if (!(legal & BIT(c))) {
            PyErr_Format(PyExc_ValueError, "card %d of the trick was not a legal card", c);
            return -1;
        }
        s->tcard[i] = c;
    }
    s->ncards = k;
    return 0;
}

/* solve(hands, trump, leader, weights, maximisers, flags=0, lo=0, hi=-1, guess=-1,
         max_nodes=0, played=(), max_seconds=0.0) -> int */
static PyObject *Solver_solve(SolverObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"hands",     "trump",  "leader",      "weights", "maximisers",
                             "flags",     "lo",     "hi",          "guess",   "max_nodes",
                             "played",    "max_seconds", NULL};
    PyObject *hands_o, *weights_o, *max_o, *played_o = NULL;
    int trump, leader, flags = 0, lo = 0, hi = -1, guess = -1;
    unsigned long long max_nodes = 0;
    double max_seconds = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OiiOO|iiiiKOd", kwlist, &hands_o, &trump,
                                     &leader, &weights_o, &max_o, &flags, &lo, &hi, &guess,
                                     &max_nodes, &played_o, &max_seconds))
        return NULL;
    S s;
    memset(&s, 0, sizeof s);
    memset(s.killer, 0xff, sizeof s.killer);
    memset(s.killer2, 0xff, sizeof s.killer2);
    s.flags = flags;
    if (setup_position(&s, hands_o, played_o, trump, leader) < 0) return NULL;
    if (read_ints(weights_o, s.weight, s.n, "weights") < 0) return NULL;
    if (read_ints(max_o, s.maxside, s.n, "maximisers") < 0) return NULL;
    int cards = s.tricks;
    s.wmax = 0;
    for (int p = 0; p < s.n; p++) {
        if (s.weight[p] < 0 || s.weight[p] > 16)
            return PyErr_Format(PyExc_ValueError, "weights are 0 to 16");
        if (s.weight[p] > s.wmax) s.wmax = s.weight[p];
        s.maxside[p] = s.maxside[p] ? 1 : 0;
    }
    if (s.wmax * cards > 255) return PyErr_Format(PyExc_ValueError, "values above 255");
    if (max_seconds < 0) return PyErr_Format(PyExc_ValueError, "max_seconds must be >= 0");
    s.max_nodes = max_nodes;
    s.key = lengths_key(&s);
    for (int p = 0; p < s.n; p++) s.live |= s.hand[p];
    owners(&s, s.own);
    int top = cards * s.wmax;
    if (hi < 0 || hi > top) hi = top;
    if (lo < 0) lo = 0;
    if (guess < 0) guess = (lo + hi + 1) / 2;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is already solving (one per thread)");
        return NULL;
    }
    int same = self->key_n == s.n && self->key_trump == trump && self->key_flags == flags &&
               memcmp(self->key_weight, s.weight, sizeof s.weight) == 0 &&
               memcmp(self->key_maxside, s.maxside, sizeof s.maxside) == 0;
    self->busy = 1;
    s.tt = &self->tt;
    int value;
    Py_BEGIN_ALLOW_THREADS;
    if (max_seconds > 0) s.deadline = now_seconds() + max_seconds;
    if (!same) tt_clear(&self->tt);
    value = lo >= hi ? lo : solve_value(&s, lo, hi, guess);
    Py_END_ALLOW_THREADS;
    self->busy = 0;
    self->key_n = s.n;
    self->key_trump = trump;
    self->key_flags = flags;
    memcpy(self->key_weight, s.weight, sizeof s.weight);
    memcpy(self->key_maxside, s.maxside, sizeof s.maxside);
    self->nodes += s.nodes;
    if (s.aborted) {
        PyErr_SetString(PyExc_TimeoutError, "the search went past its limit of positions or time");
        return NULL;
    }
    return PyLong_FromLong(value);
}

static PyObject *Solver_clear(SolverObject *self, PyObject *Py_UNUSED(ignored)) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this solver is solving");
        return NULL;
    }
    tt_clear(&self->tt);
    self->key_n = -1;
    Py_RETURN_NONE;
}

static PyObject *Solver_get_nodes(SolverObject *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static int Solver_set_nodes(SolverObject *self, PyObject *value, void *closure) {
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "nodes cannot be deleted");
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    self->nodes = v;
    return 0;
}

static PyObject *Solver_get_clears(SolverObject *self, void *closure) {
    return PyLong_FromUnsignedLongLong(self->tt.clears);
}

static PyObject *Solver_get_memory(SolverObject *self, void *closure) {
    return PyLong_FromSize_t((size_t)self->tt.nslots * sizeof(Slot) +
                             (size_t)self->tt.nentries * (sizeof(Entry) + sizeof(u32)));
}

static PyMethodDef Solver_methods[] = {
    {"solve", (PyCFunction)(void (*)(void))Solver_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(hands, trump, leader, weights, maximisers, flags=0, lo=0, hi=-1, guess=-1,\n"
     "      max_nodes=0, played=(), max_seconds=0.0)\n"
     "The value of the remaining tricks with best play, clamped to [lo, hi]. played: the cards\n"
     "(16 * suit + rank index) already in the trick that leader led, in play order.\n"
     "TimeoutError past max_nodes positions or max_seconds (0: no limit)."},
    {"clear", (PyCFunction)Solver_clear, METH_NOARGS, "Empty the transposition table."},
    {NULL}};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, (setter)Solver_set_nodes, "positions searched", NULL},
    {"clears", (getter)Solver_get_clears, NULL,
     "times the full table dropped its shallowest keys (or emptied itself)", NULL},
    {"memory", (getter)Solver_get_memory, NULL, "bytes held by the table", NULL},
    {NULL}};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.solver._dds.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A double-dummy solver with its own transposition table (one per thread).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Solver_init,
    .tp_dealloc = (destructor)Solver_dealloc,
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_dds",
                                       "Double-dummy search in C.", -1, NULL};

PyMODINIT_FUNC PyInit__dds(void) {
    init_sig_mask();
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "MUST_TRUMP", FLAG_MUST_TRUMP);
    PyModule_AddIntConstant(m, "NO_UNDERTRUMP", FLAG_NO_UNDERTRUMP);
    return m;
}
