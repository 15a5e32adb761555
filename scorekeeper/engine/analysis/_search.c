/* The compiled core of search.py: the same alpha-beta, bounds and ordering (search.py is its
 * reference and its fallback; tests/engine/test_analysis.py checks both against the plain
 * minimax); only the table differs, a fixed array of four-slot buckets here, a dict there. Cards are 0..39, 10 * suit + place, place 0 the highest; hands are bit masks.
 * Values are the points team 0 takes from a position to the end. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* The switches of the search, one bit each: the module exports them by the names of
 * options.py's Options fields (SWITCHES), and search.py builds its flags from that. */
#define OPT_TABLE 1
#define OPT_BLANKS 2
#define OPT_EQUIVALENT 4
#define OPT_ORDERING 8
#define OPT_BOUNDS 16
#define OPT_LOOKAHEAD 32
#define OPT_LOOKAHEAD_VALUES 64
#define OPT_RANKS 128
static const struct {
    const char *name;
    int bit;
} SWITCHES[] = {
    {"table", OPT_TABLE},         {"blank_classes", OPT_BLANKS}, {"equivalent_cards", OPT_EQUIVALENT},
    {"ordering", OPT_ORDERING},   {"bounds", OPT_BOUNDS},        {"lookahead", OPT_LOOKAHEAD},
    {"lookahead_values", OPT_LOOKAHEAD_VALUES}, {"rank_classes", OPT_RANKS},
};
/* The numbering of cards (10 places a suit, places 0..4 the faces) and the points of each
 * place: exported too, options.py takes them from here. */
#define PLACES 10
#define FACES 5
#define BLANKS ((1 << (PLACES - FACES)) - 1) /* a suit's blanks, shifted down by FACES */
#define FACE_BITS ((1 << FACES) - 1)
#define CHECK_CLOCK_EVERY 2048
/* Entries a bucket: a position's class and its mates share one (below). */
#define SLOTS 4
#define BUCKET_BYTES (SLOTS * 32)
/* Positions of at most SMALL_CARDS cards a hand have a table of their own, SMALL_SIZE entries
 * (1 MiB) that stays in the processor's cache: half the trick boundaries are such endgames. */
#define SMALL_CARDS 2
#define SMALL_SIZE (1 << 15)

static const int PLACE_POINTS[PLACES] = {11, 10, 4, 3, 2, 0, 0, 0, 0, 0};
static int POINTS[4 * PLACES];
static uint64_t SUIT_MASK[4];
/* PACK[r][held]: the bits of ``held`` among those of ``r``, moved down to close the gaps; for
 * a suit's five blanks, and under rank classes for its five faces too. */
_Static_assert(PLACES == 2 * FACES, "a suit is five faces and five blanks");
static uint8_t PACK[BLANKS + 1][BLANKS + 1];
static uint8_t COUNT[BLANKS + 1];
/* Under rank classes, two positions of one class hold their cards in the same order, one
 * card for another: the i-th card still in play of a suit in one is the other's i-th. For two
 * sets of a suit's faces in play, what the cards of the first are worth more than the
 * second's, slot by slot (GAIN), and less (LOSS). */
static uint8_t GAIN[FACE_BITS + 1][FACE_BITS + 1], LOSS[FACE_BITS + 1][FACE_BITS + 1];

/* 32 bytes, four to a bucket of two adjacent cache lines: the probe of a position reads one
 * bucket.
 * k holds the four hands of 40 bits and the leader (bits 40..41 of k[2]), and
 * under rank classes the faces in play (bits 43..62, five a suit): the key of the class is
 * the rest, and best is the best lead's suit and slot among its suit's cards in play. */
#define FACES_SHIFT 43
#define FACES_FIELD ((((uint64_t)1 << 4 * FACES) - 1) << FACES_SHIFT)
typedef struct {
    uint64_t k[3];
    uint8_t lower, upper, size;
    int8_t best;
    uint32_t generation; /* the search's generation when stored: an older one is empty */
} Entry;
_Static_assert(sizeof(Entry) * SLOTS == BUCKET_BYTES, "a bucket is SLOTS entries of 32 bytes");

typedef struct {
    PyObject_HEAD
    int trump;
    int options;
    uint64_t hands[4];
    Entry *table;
    void *allocated;
    size_t allocated_size;
    uint64_t mask;
    Entry *small;
    void *small_allocated;
    long long nodes;
    double deadline;
    int timed_out;
    long long stored;
    uint32_t generation;
} Search;

static double monotonic(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static inline int low_card(uint64_t mask) { return __builtin_ctzll(mask); }

static inline int beats(int card, int win, int trump) {
    int suit = card / PLACES, win_suit = win / PLACES;
    if (suit == win_suit) return card < win;
    return suit == trump;
}

/* The position's key in key[4], one hand a word; returns the faces in play under rank
 * classes (their class's key leaves them out), else 0. Under rank classes each hand's cards of
 * a suit become their places among the suit's cards in play: whatever was played, the order
 * of the cards in play and who holds each are what the tricks depend on. */
static inline uint32_t key_of(Search *s, uint64_t key[4]) {
    uint64_t *h = s->hands;
    uint64_t remaining = h[0] | h[1] | h[2] | h[3];
    if (s->options & OPT_RANKS) {
        uint32_t faces = 0;
        for (int suit = 0; suit < 4; suit++)
            faces |= (uint32_t)((remaining >> (PLACES * suit)) & FACE_BITS) << (FACES * suit);
        for (int seat = 0; seat < 4; seat++) {
            uint64_t packed = 0, hand = h[seat];
            for (int suit = 0; suit < 4; suit++) {
                int shift = PLACES * suit;
                unsigned r = (remaining >> shift) & FACE_BITS, held = (hand >> shift) & FACE_BITS;
                unsigned r_low = (remaining >> (shift + FACES)) & BLANKS;
                unsigned held_low = (hand >> (shift + FACES)) & BLANKS;
                unsigned places = PACK[r][held] | (unsigned)PACK[r_low][held_low] << COUNT[r];
                packed |= (uint64_t)places << shift;
            }
            key[seat] = packed;
        }
        return faces;
    }
    if (!(s->options & OPT_BLANKS)) {
        memcpy(key, h, sizeof(uint64_t) * 4);
        return 0;
    }
    for (int seat = 0; seat < 4; seat++) {
        uint64_t packed = 0, hand = h[seat];
        for (int suit = 0; suit < 4; suit++) {
            int shift = PLACES * suit + FACES;
            packed |= hand & ((uint64_t)FACE_BITS << (shift - FACES));
            packed |= (uint64_t)PACK[(remaining >> shift) & BLANKS][(hand >> shift) & BLANKS] << shift;
        }
        key[seat] = packed;
    }
    return 0;
}

/* The key of a table entry: the four hands of 40 bits, the leader and the faces, in 3 words. */
static inline void pack_key(const uint64_t key[4], int leader, uint32_t faces,
                            uint64_t packed[3]) {
    packed[0] = key[0] | key[1] << 40;
    packed[1] = key[1] >> 24 | key[2] << 16;
    packed[2] = key[3] | (uint64_t)leader << 40 | (uint64_t)faces << FACES_SHIFT;
}

static inline uint64_t hash_key(const uint64_t key[4], int leader) {
    uint64_t x = key[0] * 0x9E3779B97F4A7C15ULL;
    x ^= key[1] + 0xBF58476D1CE4E5B9ULL + (x << 6) + (x >> 2);
    x ^= key[2] * 0x94D049BB133111EBULL + (x << 6) + (x >> 2);
    x ^= key[3] + 0x2545F4914F6CDD1DULL + (x << 6) + (x >> 2) + (uint64_t)leader;
    x ^= x >> 31;
    x *= 0xD6E8FEB86659FD93ULL;
    x ^= x >> 32;
    return x;
}

/* The bucket of a position whose leader holds ``cards`` cards. */
static inline Entry *bucket_of(Search *s, const uint64_t key[4], int leader, int cards) {
    uint64_t index = hash_key(key, leader) & ~(uint64_t)(SLOTS - 1);
    return cards <= SMALL_CARDS ? &s->small[index & (SMALL_SIZE - 1)] : &s->table[index & s->mask];
}

/* The entry of the position in a bucket, else one of its class; NULL if none. The position's
 * value lies between the entry's lower bound less *below and its upper bound plus *above: the
 * tightest bounds of every entry of its class in the bucket, its own unwidened, a class mate's
 * widened by what their cards differ by (the same line of play puts each card of one where
 * the other's is). */
static inline Entry *entry_in(Entry *bucket, const uint64_t packed[3], uint32_t generation,
                              int *above, int *below) {
    Entry *found = NULL;
    int lower = 0, upper = 0;
    uint32_t mine = (uint32_t)(packed[2] >> FACES_SHIFT);
    for (int i = 0; i < SLOTS; i++) {
        Entry *e = &bucket[i];
        if (e->k[0] != packed[0] || e->k[1] != packed[1] ||
            ((e->k[2] ^ packed[2]) & ~FACES_FIELD) || e->generation != generation)
            continue;
        int gain = 0, loss = 0;
        uint32_t its = (uint32_t)(e->k[2] >> FACES_SHIFT);
        if (its != mine)
            for (int suit = 0; suit < 4; suit++) {
                unsigned a = (mine >> (FACES * suit)) & FACE_BITS;
                unsigned b = (its >> (FACES * suit)) & FACE_BITS;
                gain += GAIN[a][b];
                loss += LOSS[a][b];
            }
        if (found == NULL) {
            lower = e->lower - loss;
            upper = e->upper + gain;
        } else {
            if (e->lower - loss > lower) lower = e->lower - loss;
            if (e->upper + gain < upper) upper = e->upper + gain;
        }
        if (found == NULL || its == mine) found = e;
    }
    if (found != NULL) {
        *below = found->lower - lower;
        *above = upper - found->upper;
    }
    return found;
}

/* A card as its suit and slot among its suit's cards in play, and back (-1: none). */
static inline int slot_of(uint64_t in_play, int card) {
    if (card < 0) return -1;
    int suit = card / PLACES, place = card % PLACES;
    uint64_t above = (in_play >> (PLACES * suit)) & ((1ULL << place) - 1);
    return PLACES * suit + __builtin_popcountll(above);
}

static inline int card_in(uint64_t in_play, int slot) {
    if (slot < 0) return -1;
    int suit = slot / PLACES;
    uint64_t r = (in_play >> (PLACES * suit)) & ((1ULL << PLACES) - 1);
    for (int k = slot % PLACES; k > 0 && r; k--) r &= r - 1;
    return r ? PLACES * suit + low_card(r) : -1;
}

static void sure_points(Search *s, int *sure0, int *sure1) {
    uint64_t *h = s->hands;
    uint64_t trumps = (h[0] | h[1] | h[2] | h[3]) & SUIT_MASK[s->trump];
    int sure[2] = {0, 0}, team = -1;
    while (trumps) {
        uint64_t low = trumps & (~trumps + 1);
        int holder = (h[0] & low) ? 0 : (h[1] & low) ? 1 : (h[2] & low) ? 2 : 3;
        if (team < 0) team = holder & 1;
        else if ((holder & 1) != team) break;
        sure[team] += POINTS[low_card(low)];
        trumps ^= low;
    }
    *sure0 = sure[0];
    *sure1 = sure[1];
}

/* The leader's quick points: in each side suit, the run of top cards it holds, as many as
 * each opponent holding a trump can follow (one without trumps can never take them). */
static int quick_points(Search *s, int leader) {
    uint64_t *h = s->hands;
    uint64_t remaining = h[0] | h[1] | h[2] | h[3];
    int total = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (suit == s->trump) continue;
        uint64_t r = remaining & SUIT_MASK[suit], mine = h[leader];
        int k = 0;
        while (r && (mine & r & (~r + 1))) {
            k++;
            r &= r - 1;
        }
        for (int step = 1; step < 4; step += 2) {
            uint64_t other = h[(leader + step) & 3];
            int length = __builtin_popcountll(other & SUIT_MASK[suit]);
            if ((other & SUIT_MASK[s->trump]) && length < k) k = length;
        }
        for (uint64_t run = mine & SUIT_MASK[suit]; k > 0; k--, run &= run - 1)
            total += POINTS[low_card(run)];
    }
    return total;
}

/* The legal cards, one of each run of equivalent cards: returns how many. */
static int distinct(Search *s, uint64_t legal, uint64_t in_play, int *cards) {
    int n = 0, previous = -PLACES;
    int equivalent = s->options & OPT_EQUIVALENT;
    while (legal) {
        uint64_t low = legal & (~legal + 1);
        int card = low_card(low);
        legal ^= low;
        if (equivalent && card / PLACES == previous / PLACES && POINTS[card] == POINTS[previous] &&
            (in_play & (low - (2ULL << previous))) == 0) {
            previous = card;
            continue;
        }
        previous = card;
        cards[n++] = card;
    }
    return n;
}

/* Whether a hand holding ``hand`` can take a trick led in ``led`` that ``win`` now wins. */
static inline int can_beat(uint64_t hand, int led, int win, int trump) {
    uint64_t follow = hand & SUIT_MASK[led];
    int win_suit = win / PLACES;
    if (follow) return win_suit == led && (follow & ((1ULL << win) - 1)) != 0;
    uint64_t trumps = hand & SUIT_MASK[trump];
    if (!trumps) return 0;
    if (win_suit != trump) return 1;
    return (trumps & ((1ULL << win) - 1)) != 0;
}

static void sort_by(int *cards, int *keys, int n) {
    for (int i = 1; i < n; i++) {
        int card = cards[i], key = keys[i], j = i - 1;
        while (j >= 0 && keys[j] > key) {
            cards[j + 1] = cards[j];
            keys[j + 1] = keys[j];
            j--;
        }
        cards[j + 1] = card;
        keys[j + 1] = key;
    }
}

static int lead(Search *s, int leader, int left, int alpha, int beta);

static int last_trick(Search *s, int leader, int left) {
    int win = 63 - __builtin_clzll(s->hands[leader]), winner = leader;
    for (int step = 1; step < 4; step++) {
        int seat = (leader + step) & 3;
        int card = 63 - __builtin_clzll(s->hands[seat]);
        if (beats(card, win, s->trump)) {
            win = card;
            winner = seat;
        }
    }
    return (winner & 1) == 0 ? left : 0;
}

static int follow(Search *s, int n, int leader, int led, int win_seat, int win_card, int pile,
                  uint64_t trick, int left, int alpha, int beta) {
    uint64_t *h = s->hands;
    int seat = (leader + n) & 3;
    uint64_t mine = h[seat];
    uint64_t legal = mine & SUIT_MASK[led];
    if (!legal) legal = mine;
    int cards[PLACES], keys[PLACES];
    int count = distinct(s, legal, h[0] | h[1] | h[2] | h[3] | trick, cards);
    int trump = s->trump;
    if ((s->options & OPT_ORDERING) && count > 1) {
        int partner = ((win_seat ^ seat) & 1) == 0;
        uint64_t fourth = h[(seat + 1) & 3];
        for (int i = 0; i < count; i++) {
            int c = cards[i], wins = beats(c, win_card, trump);
            if (n == 2) {
                /* Third hand: the fourth (an opponent) may still take the trick. */
                if (partner && !can_beat(fourth, led, win_card, trump))
                    keys[i] = -POINTS[c];
                else if (wins && !can_beat(fourth, led, c, trump))
                    keys[i] = -200 - POINTS[c];
                else
                    keys[i] = wins ? c % PLACES : 100 + POINTS[c];
            } else if (partner) keys[i] = (wins ? 100 : 0) - POINTS[c];
            else if (n == 3) /* Last: win with the most points, or ruff with the lowest trump. */
                keys[i] = !wins ? 100 + POINTS[c] : c / PLACES != led ? -(c % PLACES) : -POINTS[c];
            else keys[i] = wins ? c % PLACES : 100 + POINTS[c];
        }
        sort_by(cards, keys, count);
    }
    int maximising = (seat & 1) == 0;
    int size = __builtin_popcountll(mine);
    /* The bounds the lookahead read on each card's next position (-1: none), as they were
     * then: the slot may hold another position by the time the card is searched. */
    int known_lower[PLACES], known_upper[PLACES];
    for (int i = 0; i < count; i++) known_lower[i] = -1;
    if (n == 3 && (s->options & OPT_TABLE) && size >= 3) {
        /* The buckets of the next trick's positions, asked of the memory all at once; then,
         * the lookahead: one whose bounds already decide this card's window decides it. */
        Entry *buckets[PLACES];
        uint64_t packs[PLACES][3];
        for (int i = 0; i < count; i++) {
            uint64_t key[4];
            h[seat] = mine ^ (1ULL << cards[i]);
            uint32_t faces = key_of(s, key);
            int winner = beats(cards[i], win_card, trump) ? seat : win_seat;
            pack_key(key, winner, faces, packs[i]);
            buckets[i] = bucket_of(s, key, winner, size - 1);
            __builtin_prefetch(buckets[i]);
            __builtin_prefetch(buckets[i] + SLOTS - 1);
        }
        h[seat] = mine;
        if (s->options & OPT_LOOKAHEAD) {
            for (int i = 0; i < count; i++) {
                int above, below;
                Entry *found = entry_in(buckets[i], packs[i], s->generation, &above, &below);
                if (found == NULL) continue;
                known_lower[i] = found->lower > below ? found->lower - below : 0;
                known_upper[i] = found->upper + above;
                int winner = beats(cards[i], win_card, trump) ? seat : win_seat;
                int gain = (winner & 1) == 0 ? pile + POINTS[cards[i]] : 0;
                if (maximising && gain + known_lower[i] >= beta) return gain + known_lower[i];
                if (!maximising && gain + known_upper[i] <= alpha) return gain + known_upper[i];
            }
        }
    }
    int best = maximising ? -1 : 200;
    int a = alpha, b = beta;
    for (int i = 0; i < count; i++) {
        int card = cards[i];
        uint64_t bit = 1ULL << card;
        h[seat] = mine ^ bit;
        int points = POINTS[card], value;
        int new_seat = win_seat, new_card = win_card;
        if (beats(card, win_card, trump)) {
            new_seat = seat;
            new_card = card;
        }
        if (n == 3) {
            int gain = (new_seat & 1) == 0 ? pile + points : 0;
            int lower = gain + known_lower[i], upper = gain + known_upper[i];
            /* The lookahead's bounds stand for the card's value where they decide it: an exact
             * value, or a bound on the wrong side of the window (the card cannot change it). */
            int known = known_lower[i] >= 0 && (s->options & OPT_LOOKAHEAD_VALUES);
            if (known && lower == upper) value = lower;
            else if (known && maximising && upper <= a) value = upper;
            else if (known && !maximising && lower >= b) value = lower;
            else value = gain + lead(s, new_seat, left - points, a - gain, b - gain);
        } else {
            value = follow(s, n + 1, leader, led, new_seat, new_card, pile + points, trick | bit,
                           left - points, a, b);
        }
        if (s->timed_out) break;
        if (maximising) {
            if (value > best) {
                best = value;
                if (value > a) a = value;
            }
        } else if (value < best) {
            best = value;
            if (value < b) b = value;
        }
        if (a >= b) break;
    }
    h[seat] = mine;
    return best;
}

static int lead(Search *s, int leader, int left, int alpha, int beta) {
    uint64_t *h = s->hands;
    uint64_t mine = h[leader];
    if (!mine) return 0;
    if ((mine & (mine - 1)) == 0) return last_trick(s, leader, left);
    s->nodes++;
    if (s->deadline > 0 && s->nodes % CHECK_CLOCK_EVERY == 0 && monotonic() > s->deadline)
        s->timed_out = 1;
    if (s->timed_out) return 0;
    int lower = 0, upper = left;
    if (s->options & OPT_BOUNDS) {
        int sure0, sure1;
        sure_points(s, &sure0, &sure1);
        if (leader & 1) sure1 += quick_points(s, leader);
        else sure0 += quick_points(s, leader);
        lower = sure0;
        upper = left - sure1;
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
    }
    Entry *entry = NULL;
    uint64_t key[4], packed[3];
    int hint = -1;
    uint64_t in_play = h[0] | h[1] | h[2] | h[3];
    if (s->options & OPT_TABLE) {
        uint32_t faces = key_of(s, key);
        pack_key(key, leader, faces, packed);
        /* The position is stored in its own slot, else in the bucket's slot with the fewest
         * cards, not always in its class mate's: measured on the 100 golden deals, four slots
         * a bucket, this and entry_in's tightest bounds of the class together took 29 % fewer
         * trick boundaries and 17 % less time than two slots with the mate's taken over. */
        Entry *bucket = bucket_of(s, key, leader, __builtin_popcountll(mine));
        int above, below;
        entry = entry_in(bucket, packed, s->generation, &above, &below);
        if (entry != NULL) {
            int known_lower = entry->lower - below, known_upper = entry->upper + above;
            if (known_lower >= beta) return known_lower;
            if (known_upper <= alpha) return known_upper;
            if (known_lower > lower) lower = known_lower;
            if (known_upper < upper) upper = known_upper;
            if (lower >= upper) return lower;
            hint = card_in(in_play, entry->best);
            if (entry->k[2] != packed[2]) entry = NULL;
        }
        if (entry == NULL) {
            int fewest = 1000;
            for (int i = 0; i < SLOTS; i++) {
                int cards = bucket[i].generation == s->generation ? bucket[i].size : 0;
                if (cards < fewest) {
                    fewest = cards;
                    entry = &bucket[i];
                }
            }
        }
    }
    int cards[PLACES], keys[PLACES];
    int count = distinct(s, mine, in_play, cards);
    if (s->options & OPT_ORDERING) {
        /* The table's best lead first; then the side suits no opponent can ruff, trumps, the
         * side suits an opponent can ruff; a suit the partner can ruff before the others, and
         * the most points first (measured: the ruffs put last saved half the nodes of the tail
         * deals; tops of suits first, or the fewest points first, cost more). */
        uint64_t trumps = SUIT_MASK[s->trump], partner = h[(leader + 2) & 3];
        uint64_t left_hand = h[(leader + 1) & 3], right_hand = h[(leader + 3) & 3];
        for (int i = 0; i < count; i++) {
            int c = cards[i], suit = c / PLACES;
            uint64_t in_suit = SUIT_MASK[suit];
            if (c == hint) keys[i] = -1000;
            else if (suit == s->trump) keys[i] = 50 - POINTS[c];
            else if ((!(left_hand & in_suit) && (left_hand & trumps)) ||
                     (!(right_hand & in_suit) && (right_hand & trumps)))
                keys[i] = 100 - POINTS[c];
            else if (!(partner & in_suit) && (partner & trumps)) keys[i] = -30 - POINTS[c];
            else keys[i] = -POINTS[c];
        }
        sort_by(cards, keys, count);
    }
    int maximising = (leader & 1) == 0;
    int best = maximising ? -1 : left + 1, best_card = -1;
    int a = alpha, b = beta;
    for (int i = 0; i < count; i++) {
        int card = cards[i];
        uint64_t bit = 1ULL << card;
        h[leader] = mine ^ bit;
        int points = POINTS[card];
        int value = follow(s, 1, leader, card / PLACES, leader, card, points, bit, left - points, a, b);
        if (s->timed_out) break;
        if (maximising) {
            if (value > best) {
                best = value;
                best_card = card;
                if (value > a) a = value;
            }
        } else if (value < best) {
            best = value;
            best_card = card;
            if (value < b) b = value;
        }
        if (a >= b) break;
    }
    h[leader] = mine;
    if (s->timed_out) return 0;
    if (entry != NULL) {
        /* The slot may hold another position by now (always replaced: the newest wins). */
        if (!(entry->k[0] == packed[0] && entry->k[1] == packed[1] &&
              entry->k[2] == packed[2] && entry->generation == s->generation)) {
            memcpy(entry->k, packed, sizeof packed);
            entry->generation = s->generation;
            entry->size = (uint8_t)(1 + __builtin_popcountll(mine));
            entry->lower = 0;
            entry->upper = (uint8_t)left;
            s->stored++;
        }
        if (best <= alpha) {
            if (best < entry->upper) entry->upper = (uint8_t)best;
        } else if (best >= beta) {
            if (best > entry->lower) entry->lower = (uint8_t)best;
        } else {
            entry->lower = entry->upper = (uint8_t)best;
        }
        entry->best = (int8_t)slot_of(in_play, best_card);
    }
    return best;
}

/* root(hands, leader, trick, alpha, beta, deadline): the fail-soft value in the window. */
static PyObject *Search_root(Search *s, PyObject *args) {
    unsigned long long h0, h1, h2, h3;
    int leader, alpha, beta;
    PyObject *trick_list;
    double deadline;
    if (!PyArg_ParseTuple(args, "(KKKK)iO!iid", &h0, &h1, &h2, &h3, &leader, &PyList_Type,
                          &trick_list, &alpha, &beta, &deadline))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(trick_list);
    int trick[4];
    if (n > 4 || leader < 0 || leader > 3) {
        PyErr_SetString(PyExc_ValueError, "a trick has at most 4 cards, a leader is 0..3");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long card = PyLong_AsLong(PyList_GET_ITEM(trick_list, i));
        if (card < 0 || card > 39) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0..39");
            return NULL;
        }
        trick[i] = (int)card;
    }
    uint64_t all = (1ULL << 4 * PLACES) - 1;
    if ((h0 | h1 | h2 | h3) & ~all) {
        PyErr_SetString(PyExc_ValueError, "a hand is a mask of 40 bits");
        return NULL;
    }
    s->hands[0] = h0;
    s->hands[1] = h1;
    s->hands[2] = h2;
    s->hands[3] = h3;
    s->deadline = deadline;
    s->timed_out = 0;
    int left = 0;
    for (int seat = 0; seat < 4; seat++)
        for (uint64_t m = s->hands[seat]; m; m &= m - 1) left += POINTS[low_card(m)];
    int value;
    if (n == 0) {
        value = lead(s, leader, left, alpha, beta);
    } else {
        int win = 0, pile = 0;
        uint64_t mask = 0;
        for (int i = 0; i < n; i++) {
            if (i > 0 && beats(trick[i], trick[win], s->trump)) win = i;
            mask |= 1ULL << trick[i];
            pile += POINTS[trick[i]];
        }
        if (n == 4) {
            int winner = (leader + win) & 3, gain = (winner & 1) == 0 ? pile : 0;
            value = gain + lead(s, winner, left, alpha - gain, beta - gain);
        } else {
            value = follow(s, (int)n, leader, trick[0] / PLACES, (leader + win) & 3, trick[win], pile,
                           mask, left, alpha, beta);
        }
    }
    if (s->timed_out) return Py_BuildValue("O", Py_None);
    return PyLong_FromLong(value);
}

/* Empty the tables: a new generation, whose entries are those stored from now on. */
static void next_generation(Search *s) {
    if (++s->generation == 0) {
        memset(s->table, 0, sizeof(Entry) * (s->mask + 1));
        memset(s->small, 0, sizeof(Entry) * SMALL_SIZE);
        s->generation = 1;
    }
}

static PyObject *Search_clear(Search *s, PyObject *Py_UNUSED(ignored)) {
    next_generation(s);
    s->stored = 0;
    Py_RETURN_NONE;
}

#define HUGE_PAGE ((size_t)2 << 20)
#define HUGE_TABLE ((size_t)64 << 20)

/* The last table on huge pages (a full deal's, 64 MiB), kept for the next search of its size
 * when its own ends: the consumer values deal after deal, and each new table's pages were
 * faulted in and zeroed again (measured: 9 ms of a median deal's 63). A new generation empties
 * it. One is kept, while the process lives; under the GIL, like every call here. Where mmap is
 * not (or fails), nothing is kept. */
static struct {
    void *allocated;
    size_t allocated_size, bytes;
    Entry *table;
    uint32_t generation;
} spare;

/* The table, empty (only the pages used become resident), its buckets aligned on theirs. On
 * Linux a full deal's is asked in huge pages: its reads are random, and with pages of 4 KiB
 * nearly each one missed the processor's page cache (TLB) too (measured: a third of the
 * search's time). A smaller search's is not: it would pay for zeroing 2 MiB pages it hardly
 * uses (a 6-trick endgame took 3.9 ms instead of 1.4). */
static int allocate_table(Search *s, size_t bytes) {
    s->generation = 1;
    if (spare.allocated != NULL && spare.bytes == bytes) {
        s->allocated = spare.allocated;
        s->allocated_size = spare.allocated_size;
        s->table = spare.table;
        s->generation = spare.generation;
        spare.allocated = NULL;
        return 0;
    }
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (bytes >= HUGE_TABLE) {
        size_t size = bytes + HUGE_PAGE;
        void *memory =
            mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory != MAP_FAILED) {
            uintptr_t start = ((uintptr_t)memory + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
            madvise((void *)start, bytes, MADV_HUGEPAGE);
#endif
            s->allocated = memory;
            s->allocated_size = size;
            s->table = (Entry *)start;
            return 0;
        }
    }
#endif
    s->allocated = PyMem_Calloc(1, bytes + BUCKET_BYTES);
    if (s->allocated == NULL) return -1;
    s->allocated_size = 0;
    s->table = (Entry *)(((uintptr_t)s->allocated + BUCKET_BYTES - 1) & ~(uintptr_t)(BUCKET_BYTES - 1));
    return 0;
}

static void free_table(Search *s) {
    if (s->allocated == NULL) return;
    if (s->allocated_size && spare.allocated == NULL) {
        spare.allocated = s->allocated;
        spare.allocated_size = s->allocated_size;
        spare.bytes = sizeof(Entry) * (s->mask + 1);
        spare.table = s->table;
        spare.generation = s->generation;
        s->allocated = NULL;
        s->table = NULL;
        return;
    }
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    if (s->allocated_size) munmap(s->allocated, s->allocated_size);
    else
#endif
        PyMem_Free(s->allocated);
    s->allocated = NULL;
    s->table = NULL;
}

static int Search_init(Search *s, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"trump", "options", "table_bits", NULL};
    int trump, options, bits;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iii", names, &trump, &options, &bits))
        return -1;
    if (trump < 0 || trump > 3 || bits < 4 || bits > 24) {
        PyErr_SetString(PyExc_ValueError, "trump is 0..3, table_bits 4..24");
        return -1;
    }
    s->trump = trump;
    s->options = options;
    free_table(s);
    PyMem_Free(s->small_allocated);
    s->small = NULL;
    s->small_allocated = PyMem_Calloc(1, SMALL_SIZE * sizeof(Entry) + BUCKET_BYTES);
    if (s->small_allocated == NULL || allocate_table(s, ((size_t)1 << bits) * sizeof(Entry)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->small = (Entry *)(((uintptr_t)s->small_allocated + BUCKET_BYTES - 1) &
                         ~(uintptr_t)(BUCKET_BYTES - 1));
    s->mask = ((uint64_t)1 << bits) - 1;
    /* A kept table's entries are its last search's: this search starts a generation after. */
    next_generation(s);
    return 0;
}

static void Search_dealloc(Search *s) {
    free_table(s);
    PyMem_Free(s->small_allocated);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Search_nodes(Search *s, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(s->nodes);
}

static PyObject *Search_stored(Search *s, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(s->stored);
}

static PyMethodDef Search_methods[] = {
    {"root", (PyCFunction)Search_root, METH_VARARGS, "The fail-soft value in a window."},
    {"clear", (PyCFunction)Search_clear, METH_NOARGS, "Empty the table."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_nodes, NULL, "Trick boundaries searched.", NULL},
    {"stored", (getter)Search_stored, NULL, "Positions in the table.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "scorekeeper.engine.analysis._search.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The compiled search of one deal (its trump, options and table).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_search", "The compiled core of search.py.", -1, NULL,
};

/* SWITCHES (a dict, name to bit), PLACES, FACES, PLACE_POINTS and CHECK_CLOCK_EVERY. */
static int add_constants(PyObject *m) {
    PyObject *switches = PyDict_New(), *points = PyTuple_New(PLACES);
    if (switches == NULL || points == NULL) goto failed;
    for (size_t i = 0; i < sizeof SWITCHES / sizeof SWITCHES[0]; i++) {
        PyObject *bit = PyLong_FromLong(SWITCHES[i].bit);
        if (bit == NULL || PyDict_SetItemString(switches, SWITCHES[i].name, bit) < 0) {
            Py_XDECREF(bit);
            goto failed;
        }
        Py_DECREF(bit);
    }
    for (int place = 0; place < PLACES; place++) {
        PyObject *value = PyLong_FromLong(PLACE_POINTS[place]);
        if (value == NULL) goto failed;
        PyTuple_SET_ITEM(points, place, value);
    }
    if (PyModule_AddObject(m, "SWITCHES", switches) < 0) goto failed;
    switches = NULL;
    if (PyModule_AddObject(m, "PLACE_POINTS", points) < 0) goto failed;
    points = NULL;
    if (PyModule_AddIntConstant(m, "PLACES", PLACES) < 0 ||
        PyModule_AddIntConstant(m, "FACES", FACES) < 0 ||
        PyModule_AddIntConstant(m, "CHECK_CLOCK_EVERY", CHECK_CLOCK_EVERY) < 0)
        return -1;
    return 0;
failed:
    Py_XDECREF(switches);
    Py_XDECREF(points);
    return -1;
}

PyMODINIT_FUNC PyInit__search(void) {
    for (int i = 0; i < 4 * PLACES; i++) POINTS[i] = PLACE_POINTS[i % PLACES];
    for (int suit = 0; suit < 4; suit++) SUIT_MASK[suit] = ((1ULL << PLACES) - 1) << (PLACES * suit);
    for (int r = 0; r <= BLANKS; r++) COUNT[r] = (uint8_t)__builtin_popcount((unsigned)r);
    for (int a = 0; a <= FACE_BITS; a++)
        for (int b = 0; b <= FACE_BITS; b++) {
            int x = a, y = b;
            while (x || y) {
                int px = x ? PLACE_POINTS[low_card((uint64_t)x)] : 0;
                int py = y ? PLACE_POINTS[low_card((uint64_t)y)] : 0;
                if (px > py) GAIN[a][b] += (uint8_t)(px - py);
                else LOSS[a][b] += (uint8_t)(py - px);
                x &= x - 1;
                y &= y - 1;
            }
        }
    for (int r = 0; r <= BLANKS; r++)
        for (int held = 0; held <= BLANKS; held++) {
            int packed = 0, place = 0;
            for (int bit = 0; bit < PLACES - FACES; bit++)
                if (r >> bit & 1) {
                    if ((held & r) >> bit & 1) packed |= 1 << place;
                    place++;
                }
            PACK[r][held] = (uint8_t)packed;
        }
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    if (add_constants(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
