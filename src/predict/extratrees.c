/*
 * extratrees.c — Extra-Trees regression (Geurts, Ernst and Wehenkel,
 * "Extremely randomized trees", Machine Learning 63, 2006), as extratrees.h
 * specifies it: training, prediction, and the byte format a model is
 * stored in.
 *
 * Training grows each tree depth first from an explicit stack.  The rows
 * of a node are a range of one array of row indices, partitioned in place
 * when the node splits (the rows themselves never move), so a tree costs
 * O(n · d · depth).  Each tree has its own random stream,
 * rng_seed_stream(seed, tree index), and starts from the same state of
 * every work array, so a tree does not depend on the ones grown before it.
 *
 * A node is 16 bytes: the feature it tests (ET_LEAF at a leaf), its left
 * child's index within the tree (the right child is always the next node,
 * so one index serves both) and one double, the threshold at a split or
 * the value at a leaf (a node is never both).  A row goes left when
 * x[feature] <= threshold; a NaN feature, which compares false, goes right.
 * All trees' nodes are one array, tree after tree.
 *
 * Byte format, version 1 (every field little-endian):
 *     offset 0   "GPET"                    magic
 *            4   u32 version               1
 *            8   u32 d                     features, >= 1
 *           12   u32 ntrees                >= 1
 *           16   u32 nodes[ntrees]         each tree's node count, >= 1
 *            …   every tree's nodes in order, 16 bytes each:
 *                  i32 feature             ET_LEAF (-1) or 0 .. d-1
 *                  i32 left                at a split: left child (the right
 *                                          is left + 1); at a leaf: 0
 *                  f64 threshold or value  IEEE-754 bits, finite
 * Nothing follows the last node.  A child comes after its parent (left >
 * the parent's index) and every node but the root is the child of exactly
 * one node, so the nodes form one tree and a walk from the root ends.
 * et_load() checks all of this: a model comes from a database, outside
 * input.  A model et_load() accepts saves back to the same bytes.
 *
 * Not here: the features and targets PEACE trains on (peace_model.h).
 */
#include "extratrees.h"
#include "extratrees_int.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"

#define ET_LEAF (-1)
#define ET_MAGIC "GPET"
#define ET_VERSION 1u
#define ET_HEADER_BYTES 16u     /* magic, version, d, ntrees */
#define ET_COUNT_BYTES 4u       /* one tree's node count */
#define ET_NODE_BYTES 16u       /* feature, left, threshold or value */
/* A tree of n rows has at most 2n - 1 nodes, and node indices are int32. */
#define ET_MAX_ROWS ((size_t)1 << 30)

typedef struct et_node {
    double split;               /* the threshold at a split, the value at a leaf */
    int32_t feature;            /* ET_LEAF at a leaf */
    int32_t left;               /* left child's index in the tree; right = left + 1 */
} et_node;

struct et_model {
    int d, ntrees;
    size_t nnodes;
    size_t *tree_start;         /* ntrees + 1 offsets into nodes */
    et_node *nodes;             /* every tree's nodes, tree after tree */
};

void et_params_default(et_params *p)
{
    p->ntrees = 100;
    p->max_features = 0;
    p->min_samples_split = 2;
    p->max_depth = 0;
    p->seed = 0;
}

/* ---- the model ---------------------------------------------------------- */

/* A model with room for ntrees trees and no nodes yet. */
static et_model *model_new(int d, int ntrees)
{
    et_model *m = xcalloc(1, sizeof *m);
    m->d = d;
    m->ntrees = ntrees;
    m->tree_start = xcalloc((size_t)ntrees + 1, sizeof *m->tree_start);
    return m;
}

void et_free(et_model *m)
{
    if (!m)
        return;
    free(m->tree_start);
    free(m->nodes);
    free(m);
}

int et_nfeatures(const et_model *m)
{
    return m->d;
}

int et_ntrees(const et_model *m)
{
    return m->ntrees;
}

size_t et_nnodes(const et_model *m)
{
    return m->nnodes;
}

/* The child of split node nd (of tree) that x goes to.  The right child is
 * the left's neighbour, so the comparison picks one without a branch; a
 * NaN compares false and goes right. */
static const et_node *next_node(const et_node *tree, const et_node *nd, const double *x)
{
    return tree + nd->left + !(x[nd->feature] <= nd->split);
}

/* The leaf tree t sends x to. */
static const et_node *walk_tree(const et_model *m, int t, const double *x)
{
    const et_node *tree = m->nodes + m->tree_start[t], *node = tree;
    while (node->feature != ET_LEAF)
        node = next_node(tree, node, x);
    return node;
}

/* ET_LANES trees from t on, walked in step: each walk is a chain of
 * dependent loads that miss the cache once a forest outgrows it (3 MB for
 * PEACE's), and independent chains side by side let those misses overlap
 * (bench_extratrees: 1.8 times faster with 8 lanes, little more with 16).
 * Returns sum plus their leaves, added in tree order as one walk after
 * another would, so the result does not depend on the lanes. */
#define ET_LANES 8
static double walk_lanes(const et_model *m, int t, const double *x, double sum)
{
    const et_node *tree[ET_LANES], *node[ET_LANES];
    for (int l = 0; l < ET_LANES; l++)
        node[l] = tree[l] = m->nodes + m->tree_start[t + l];
    for (int moving = 1; moving;) {
        moving = 0;
        for (int l = 0; l < ET_LANES; l++) {
            if (node[l]->feature == ET_LEAF)
                continue;
            node[l] = next_node(tree[l], node[l], x);
            moving = 1;
        }
    }
    for (int l = 0; l < ET_LANES; l++)
        sum += node[l]->split;
    return sum;
}

double et_predict(const et_model *m, const double *x)
{
    double sum = 0;
    int t = 0;
    for (; t + ET_LANES <= m->ntrees; t += ET_LANES)
        sum = walk_lanes(m, t, x, sum);
    for (; t < m->ntrees; t++)
        sum += walk_tree(m, t, x)->split;
    return sum / m->ntrees;
}

/* ---- checking a tree ------------------------------------------------------ */

/* 0 when the count nodes of tree t form one tree over d features as the
 * byte format requires (see the top of this file), else -1 with a
 * message.  has_parent is scratch space of count bytes. */
static int check_tree(const et_node *nodes, uint32_t count, int d, uint32_t t,
                      unsigned char *has_parent, gp_err *err)
{
    memset(has_parent, 0, count);
    for (uint32_t i = 0; i < count; i++) {
        const et_node *nd = &nodes[i];
        int leaf = nd->feature == ET_LEAF;
        if (!isfinite(nd->split))
            return gp_error(err, "extra-trees model: tree %u node %u: %s is not finite", t, i,
                            leaf ? "value" : "threshold");
        if (leaf) {
            if (nd->left != 0)
                return gp_error(err, "extra-trees model: tree %u node %u: a leaf with child "
                                "index %d", t, i, (int)nd->left);
            continue;
        }
        if (nd->feature < 0 || nd->feature >= d)
            return gp_error(err, "extra-trees model: tree %u node %u: feature %d out of range "
                            "(the model has %d)", t, i, (int)nd->feature, d);
        if (nd->left <= (int64_t)i || (int64_t)nd->left + 1 >= (int64_t)count)
            return gp_error(err, "extra-trees model: tree %u node %u: child index %d out of "
                            "range (children come after their parent, within the tree's %u "
                            "nodes)", t, i, (int)nd->left, count);
        if (has_parent[nd->left] || has_parent[nd->left + 1])
            return gp_error(err, "extra-trees model: tree %u node %u: child %d already has a "
                            "parent", t, i, has_parent[nd->left] ? (int)nd->left
                                                                : (int)nd->left + 1);
        has_parent[nd->left] = has_parent[nd->left + 1] = 1;
    }
    for (uint32_t i = 1; i < count; i++)
        if (!has_parent[i])
            return gp_error(err, "extra-trees model: tree %u node %u is no node's child", t, i);
    return 0;
}

/* 1 when a tree training grew passes the checks et_load() applies, so
 * every trained model saves to bytes that load.  For asserts only. */
static inline int grown_tree_is_valid(const et_node *nodes, size_t count, int d)
{
    unsigned char *scratch = xmalloc(count);
    int ok = check_tree(nodes, (uint32_t)count, d, 0, scratch, NULL) == 0;
    free(scratch);
    return ok;
}

/* ---- training: parameters and inputs -------------------------------------- */

static int check_params(size_t n, int d, const et_params *p, gp_err *err)
{
    if (n == 0)
        return gp_error(err, "extra-trees: no training rows");
    if (n > ET_MAX_ROWS)
        return gp_error(err, "extra-trees: %zu training rows; at most %zu", n, ET_MAX_ROWS);
    if (d < 1)
        return gp_error(err, "extra-trees: %d features; need at least 1", d);
    if (p->ntrees < 1)
        return gp_error(err, "extra-trees: ntrees %d; need at least 1", p->ntrees);
    if (p->max_features < 0 || p->max_features > d)
        return gp_error(err, "extra-trees: max_features %d; need 0 (all) to %d", p->max_features,
                        d);
    if (p->min_samples_split < 2)
        return gp_error(err, "extra-trees: min_samples_split %d; need at least 2",
                        p->min_samples_split);
    if (p->max_depth < 0)
        return gp_error(err, "extra-trees: max_depth %d; need 0 (unlimited) or more",
                        p->max_depth);
    return 0;
}

static int check_finite(const double *X, const double *y, size_t n, int d, gp_err *err)
{
    for (size_t i = 0; i < n; i++) {
        for (int f = 0; f < d; f++)
            if (!isfinite(X[i * (size_t)d + (size_t)f]))
                return gp_error(err, "extra-trees: row %zu, feature %d is not finite", i, f);
        if (!isfinite(y[i]))
            return gp_error(err, "extra-trees: row %zu, y is not finite", i);
    }
    return 0;
}

/* ---- training: growing one tree ------------------------------------------- */

/* A node waiting to be grown: its index and its rows' range. */
typedef struct et_pending {
    size_t node, begin, end;
    int depth;
} et_pending;

/* The work arrays of training, reused by every tree. */
typedef struct et_builder {
    const double *X, *y;
    size_t n;
    int d, max_features, min_samples_split, max_depth;
    size_t *rows;               /* row indices; a node owns a range of them */
    double *ys;                 /* y[rows[i]], moved with rows[i] */
    double *vals, *best_vals;   /* a candidate's, the best candidate's feature
                                 * values, aligned with rows */
    int *features;              /* drawn from the front: Fisher–Yates, partial */
    et_pending *stack;          /* at most n: pending nodes own disjoint rows */
    et_node *tree;              /* at most 2n - 1 nodes */
    rng r;
} et_builder;

static void builder_init(et_builder *b, const double *X, const double *y, size_t n, int d,
                         const et_params *p)
{
    b->X = X;
    b->y = y;
    b->n = n;
    b->d = d;
    b->max_features = p->max_features ? p->max_features : d;
    b->min_samples_split = p->min_samples_split;
    b->max_depth = p->max_depth;
    b->rows = xmalloc(n * sizeof *b->rows);
    b->ys = xmalloc(n * sizeof *b->ys);
    b->vals = xmalloc(n * sizeof *b->vals);
    b->best_vals = xmalloc(n * sizeof *b->best_vals);
    b->features = xmalloc((size_t)d * sizeof *b->features);
    b->stack = xmalloc(n * sizeof *b->stack);
    b->tree = xmalloc((2 * n - 1) * sizeof *b->tree);
}

static void builder_free(et_builder *b)
{
    free(b->rows);
    free(b->ys);
    free(b->vals);
    free(b->best_vals);
    free(b->features);
    free(b->stack);
    free(b->tree);
}

/* 1 when ys[begin, end) are all equal. */
static int all_equal(const double *ys, size_t begin, size_t end)
{
    int same = 1;
    for (size_t i = begin; i < end; i++)
        same &= ys[i] == ys[begin];
    return same;
}

/* A leaf's value, the mean of ys[begin, end): exact when they are all
 * equal (a sum of equal values divided by their count need not be).  A sum
 * that overflows is taken again over y / n, so finite targets always give
 * a finite leaf. */
static double leaf_value(const double *ys, size_t begin, size_t end)
{
    if (all_equal(ys, begin, end))
        return ys[begin];
    double n = (double)(end - begin), sum = 0;
    for (size_t i = begin; i < end; i++)
        sum += ys[i];
    if (isfinite(sum))
        return sum / n;
    sum = 0;
    for (size_t i = begin; i < end; i++)
        sum += ys[i] / n;
    return sum;
}

/* Copies feature f of the node's rows into vals (aligned with rows) and
 * returns its range in *lo, *hi. */
static void gather_feature(const et_builder *b, int f, size_t begin, size_t end, double *vals,
                           double *lo, double *hi)
{
    double mn = INFINITY, mx = -INFINITY;
    for (size_t i = begin; i < end; i++) {
        double v = b->X[b->rows[i] * (size_t)b->d + (size_t)f];
        vals[i] = v;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
    }
    *lo = mn;
    *hi = mx;
}

/* A threshold uniform in [lo, hi), lo < hi.  The paper draws in [min, max];
 * leaving max out keeps both sides non-empty under the x <= t rule.  When
 * hi - lo overflows or rounding reaches hi, lo itself is returned, which
 * still splits the rows. */
static double draw_threshold(rng *r, double lo, double hi)
{
    double t = rng_range(r, lo, hi);
    return t >= lo && t < hi ? t : lo;
}

/* How much splitting the node's rows at vals <= t reduces the sum of
 * squared deviations of y, times the node's row count (a factor common to
 * every candidate of the node): n_l · n_r · (mean_l − mean_r)².  The y are
 * shifted by the node's first so that large offsets cost no digits. */
static double split_score(const double *vals, const double *ys, size_t begin, size_t end,
                          double t)
{
    double shift = ys[begin], sum_left = 0, sum_right = 0;
    size_t n_left = 0;
    for (size_t i = begin; i < end; i++) {
        double dy = ys[i] - shift;
        int left = vals[i] <= t;
        n_left += (size_t)left;
        sum_left += left ? dy : 0;
        sum_right += left ? 0 : dy;
    }
    double nl = (double)n_left, nr = (double)(end - begin - n_left);
    double gap = sum_left / nl - sum_right / nr;
    return nl * nr * gap * gap;
}

/* Geurts et al. Algorithm 2 at one node: draws up to max_features features
 * without replacement among those not constant over the node's rows, a
 * threshold for each, and keeps the candidate of the best score (the first
 * on ties).  0 with *feature and *threshold set and the feature's values in
 * b->best_vals, or -1 when every feature is constant here. */
static int draw_split(et_builder *b, size_t begin, size_t end, int *feature, double *threshold)
{
    double best = 0;
    int drawn = 0;
    *feature = -1;
    for (int i = 0; i < b->d && drawn < b->max_features; i++) {
        int j = i + (int)rng_below(&b->r, (uint64_t)(b->d - i));
        int f = b->features[j];
        b->features[j] = b->features[i];
        b->features[i] = f;
        double lo, hi;
        gather_feature(b, f, begin, end, b->vals, &lo, &hi);
        if (lo == hi)
            continue;
        drawn++;
        double t = draw_threshold(&b->r, lo, hi);
        double score = split_score(b->vals, b->ys, begin, end, t);
        if (*feature < 0 || score > best) {
            best = score;
            *feature = f;
            *threshold = t;
            double *swap = b->vals;
            b->vals = b->best_vals;
            b->best_vals = swap;
        }
    }
    return *feature < 0 ? -1 : 0;
}

/* Moves the rows whose best_vals are <= t to the front of [begin, end)
 * (rows, ys and best_vals together) and returns where the others start. */
static size_t partition_rows(et_builder *b, size_t begin, size_t end, double t)
{
    size_t lo = begin, hi = end;
    while (lo < hi) {
        if (b->best_vals[lo] <= t) {
            lo++;
            continue;
        }
        hi--;
        size_t row = b->rows[lo];
        b->rows[lo] = b->rows[hi];
        b->rows[hi] = row;
        double v = b->ys[lo];
        b->ys[lo] = b->ys[hi];
        b->ys[hi] = v;
        v = b->best_vals[lo];
        b->best_vals[lo] = b->best_vals[hi];
        b->best_vals[hi] = v;
    }
    return lo;
}

/* Whether a node may split before looking at its features: enough rows,
 * not too deep, y not constant. */
static int may_split(const et_builder *b, const et_pending *nd)
{
    if (nd->end - nd->begin < (size_t)b->min_samples_split)
        return 0;
    if (b->max_depth > 0 && nd->depth >= b->max_depth)
        return 0;
    return !all_equal(b->ys, nd->begin, nd->end);
}

/* Grows tree number `index` of a model seeded with seed into b->tree;
 * returns its node count. */
static size_t grow_tree(et_builder *b, uint64_t seed, int index)
{
    rng_seed_stream(&b->r, seed, (uint64_t)index);
    for (size_t i = 0; i < b->n; i++) {
        b->rows[i] = i;
        b->ys[i] = b->y[i];
    }
    for (int f = 0; f < b->d; f++)
        b->features[f] = f;
    size_t nnodes = 1, top = 0;
    b->stack[top++] = (et_pending){0, 0, b->n, 0};
    while (top > 0) {
        et_pending nd = b->stack[--top];
        et_node *node = &b->tree[nd.node];
        double threshold;
        int feature;
        if (!may_split(b, &nd) || draw_split(b, nd.begin, nd.end, &feature, &threshold)) {
            *node = (et_node){leaf_value(b->ys, nd.begin, nd.end), ET_LEAF, 0};
            continue;
        }
        size_t mid = partition_rows(b, nd.begin, nd.end, threshold);
        assert(nd.begin < mid && mid < nd.end);
        *node = (et_node){threshold, feature, (int32_t)nnodes};
        /* The left child on top, so it is grown next (depth first). */
        b->stack[top++] = (et_pending){nnodes + 1, mid, nd.end, nd.depth + 1};
        b->stack[top++] = (et_pending){nnodes, nd.begin, mid, nd.depth + 1};
        nnodes += 2;
        assert(top <= b->n && nnodes <= 2 * b->n - 1);
    }
    assert(grown_tree_is_valid(b->tree, nnodes, b->d));
    return nnodes;
}

/* Appends tree number t, count nodes, to the model. */
static void model_add_tree(et_model *m, size_t *cap, int t, const et_node *tree, size_t count)
{
    grow_array((void **)&m->nodes, cap, m->nnodes + count, sizeof *m->nodes);
    memcpy(m->nodes + m->nnodes, tree, count * sizeof *tree);
    m->nnodes += count;
    m->tree_start[t + 1] = m->nnodes;
}

et_model *et_train(const double *X, const double *y, size_t n, int d, const et_params *p,
                   gp_err *err)
{
    assert(p);
    if (check_params(n, d, p, err))
        return NULL;
    /* Only now: a caller with no rows may have no arrays either. */
    assert(X && y);
    if (check_finite(X, y, n, d, err))
        return NULL;
    et_builder b;
    builder_init(&b, X, y, n, d, p);
    et_model *m = model_new(d, p->ntrees);
    size_t cap = 0;
    for (int t = 0; t < p->ntrees; t++)
        model_add_tree(m, &cap, t, b.tree, grow_tree(&b, p->seed, t));
    builder_free(&b);
    /* grow_array doubled; the model keeps only what it holds. */
    m->nodes = xrealloc(m->nodes, m->nnodes * sizeof *m->nodes);
    return m;
}

/* ---- the byte format ------------------------------------------------------- */

static unsigned char *put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
    return p + 4;
}

static unsigned char *put_f64(unsigned char *p, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    p = put_u32(p, (uint32_t)bits);
    return put_u32(p, (uint32_t)(bits >> 32));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Two's complement, without the implementation-defined unsigned-to-signed
 * conversion. */
static int32_t get_i32(const unsigned char *p)
{
    uint32_t v = get_u32(p);
    return v <= INT32_MAX ? (int32_t)v : (int32_t)(v - 0x80000000u) + INT32_MIN;
}

static double get_f64(const unsigned char *p)
{
    uint64_t bits = (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

unsigned char *et_save(const et_model *m, size_t *len)
{
    *len = ET_HEADER_BYTES + ET_COUNT_BYTES * (size_t)m->ntrees + ET_NODE_BYTES * m->nnodes;
    unsigned char *buf = xmalloc(*len), *p = buf;
    memcpy(p, ET_MAGIC, 4);
    p = put_u32(p + 4, ET_VERSION);
    p = put_u32(p, (uint32_t)m->d);
    p = put_u32(p, (uint32_t)m->ntrees);
    for (int t = 0; t < m->ntrees; t++)
        p = put_u32(p, (uint32_t)(m->tree_start[t + 1] - m->tree_start[t]));
    for (size_t i = 0; i < m->nnodes; i++) {
        p = put_u32(p, (uint32_t)m->nodes[i].feature);
        p = put_u32(p, (uint32_t)m->nodes[i].left);
        p = put_f64(p, m->nodes[i].split);
    }
    assert(p == buf + *len);
    return buf;
}

/* Checks the fixed header; *d and *ntrees receive its counts. */
static int read_header(const unsigned char *p, size_t len, int *d, int *ntrees, gp_err *err)
{
    if (len < ET_HEADER_BYTES)
        return gp_error(err, "extra-trees model: truncated: %zu bytes, the header alone is %u",
                        len, ET_HEADER_BYTES);
    if (memcmp(p, ET_MAGIC, 4) != 0)
        return gp_error(err, "extra-trees model: bad magic (not an Extra-Trees model)");
    uint32_t version = get_u32(p + 4), nfeat = get_u32(p + 8), ntree = get_u32(p + 12);
    if (version != ET_VERSION)
        return gp_error(err, "extra-trees model: version %u; this program reads version %u",
                        version, ET_VERSION);
    if (nfeat < 1 || nfeat > INT_MAX)
        return gp_error(err, "extra-trees model: %u features; need 1 to %d", nfeat, INT_MAX);
    if (ntree < 1 || ntree > INT_MAX)
        return gp_error(err, "extra-trees model: %u trees; need 1 to %d", ntree, INT_MAX);
    /* Before anything is allocated for the trees: a forged count must not
     * make et_load() allocate more than the buffer's size. */
    size_t left = len - ET_HEADER_BYTES;
    if (left / ET_COUNT_BYTES < ntree)
        return gp_error(err, "extra-trees model: truncated: %u trees' node counts need %zu "
                        "bytes, %zu left", ntree, ET_COUNT_BYTES * (size_t)ntree, left);
    *d = (int)nfeat;
    *ntrees = (int)ntree;
    return 0;
}

/* Reads the node counts (read_header() saw that they fit) into
 * m->tree_start and m->nnodes, checking that they account for exactly the
 * len bytes of p; each is bounded before it is added, so the sum cannot
 * overflow. */
static int read_tree_sizes(et_model *m, const unsigned char *p, size_t len, gp_err *err)
{
    size_t left = len - ET_HEADER_BYTES - ET_COUNT_BYTES * (size_t)m->ntrees;
    size_t fit = left / ET_NODE_BYTES, total = 0;
    for (int t = 0; t < m->ntrees; t++) {
        uint32_t count = get_u32(p + ET_HEADER_BYTES + ET_COUNT_BYTES * (size_t)t);
        if (count < 1 || count > INT32_MAX)
            return gp_error(err, "extra-trees model: tree %d has %u nodes; need 1 to %d", t,
                            count, INT32_MAX);
        if (count > fit - total)
            return gp_error(err, "extra-trees model: truncated: the node counts of trees 0 "
                            "to %d need more than the %zu bytes left", t, left);
        total += count;
        m->tree_start[t + 1] = total;
    }
    if (total * ET_NODE_BYTES != left)
        return gp_error(err, "extra-trees model: node counts add up to %zu nodes (%zu bytes) "
                        "but %zu bytes follow", total, total * ET_NODE_BYTES, left);
    m->nnodes = total;
    return 0;
}

/* Decodes every node, then checks each tree. */
static int read_nodes(et_model *m, const unsigned char *p, gp_err *err)
{
    m->nodes = xmalloc(m->nnodes * sizeof *m->nodes);
    for (size_t i = 0; i < m->nnodes; i++, p += ET_NODE_BYTES)
        m->nodes[i] = (et_node){get_f64(p + 8), get_i32(p), get_i32(p + 4)};
    size_t widest = 0;
    for (int t = 0; t < m->ntrees; t++)
        if (m->tree_start[t + 1] - m->tree_start[t] > widest)
            widest = m->tree_start[t + 1] - m->tree_start[t];
    unsigned char *has_parent = xmalloc(widest);
    int rc = 0;
    for (int t = 0; t < m->ntrees && rc == 0; t++)
        rc = check_tree(m->nodes + m->tree_start[t],
                        (uint32_t)(m->tree_start[t + 1] - m->tree_start[t]), m->d, (uint32_t)t,
                        has_parent, err);
    free(has_parent);
    return rc;
}

et_model *et_load(const void *buf, size_t len, gp_err *err)
{
    const unsigned char *p = buf;
    int d = 0, ntrees = 0;
    if (read_header(p, len, &d, &ntrees, err))
        return NULL;
    et_model *m = model_new(d, ntrees);
    if (read_tree_sizes(m, p, len, err) ||
        read_nodes(m, p + ET_HEADER_BYTES + ET_COUNT_BYTES * (size_t)ntrees, err)) {
        et_free(m);
        return NULL;
    }
    return m;
}
