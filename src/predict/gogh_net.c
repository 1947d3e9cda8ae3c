/*
 * gogh_net.c — one of GOGH's feed-forward networks on FANN (Debian
 * libfann): made with weights from the project's seeded rng, trained on
 * rows, run, measured on rows, and its weights read and written for the
 * byte format.
 *
 * Shape: nin inputs, `layers` hidden layers of `hidden` symmetric sigmoids
 * (tanh), two linear outputs; every layer has FANN's bias neuron.  FANN
 * draws its initial weights with rand(); they are overwritten here with
 * Glorot-uniform draws from the caller's rng, so training depends on the
 * seed only.
 *
 * Training is per-row gradient descent (FANN_TRAIN_INCREMENTAL) with the
 * learning rate given and momentum 0.9, on the squared error
 * (FANN_ERRORFUNC_LINEAR: FANN's default tanh error function distorts a
 * regression), rows in a new order from the rng each epoch (never
 * fann_shuffle_train_data, which calls rand()).  After each epoch the loss
 * on the validation rows is measured and the best epoch's weights are
 * kept (early stopping): the validation split chooses, the test split is
 * never looked at.  A NaN loss (a diverging rate) is never the best.
 *
 * Not here: what the rows mean (gogh_rows.c).
 */
#include "gogh_int.h"

#include <floatfann.h>

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GOGH_MOMENTUM 0.9f

struct gogh_net {
    struct fann *ann;
    int nin;
};

size_t gogh_net_count_weights(int nin, int hidden, int layers)
{
    size_t n = 0, prev = (size_t)nin;
    for (int l = 0; l < layers; l++) {
        n += (prev + 1) * (size_t)hidden;
        prev = (size_t)hidden;
    }
    return n + (prev + 1) * GOGH_NOUT;
}

/* Glorot-uniform: each layer's weights in +-sqrt(6 / (fan_in + fan_out)),
 * in FANN's connection order (layer by layer, a neuron's inputs then its
 * bias). */
static void init_weights(gogh_net *net, int hidden, int layers, rng *r)
{
    size_t n = gogh_net_nweights(net), k = 0;
    double *w = xmalloc(n * sizeof *w);
    int prev = net->nin;
    for (int l = 0; l <= layers; l++) {
        int next = l < layers ? hidden : GOGH_NOUT;
        double lim = sqrt(6.0 / (prev + next));
        for (size_t c = 0; c < (size_t)(prev + 1) * (size_t)next; c++)
            w[k++] = rng_range(r, -lim, lim);
        prev = next;
    }
    assert(k == n);
    gogh_net_set_weights(net, w);
    free(w);
}

gogh_net *gogh_net_new(int nin, int hidden, int layers, rng *r)
{
    assert(nin > 0 && hidden > 0 && layers >= 1 && layers <= GOGH_MAX_LAYERS);
    unsigned int sizes[GOGH_MAX_LAYERS + 2];
    sizes[0] = (unsigned int)nin;
    for (int l = 1; l <= layers; l++)
        sizes[l] = (unsigned int)hidden;
    sizes[layers + 1] = GOGH_NOUT;
    gogh_net *net = xcalloc(1, sizeof *net);
    net->nin = nin;
    net->ann = fann_create_standard_array((unsigned int)layers + 2, sizes);
    if (!net->ann)
        abort();                /* FANN fails only when out of memory */
    fann_set_activation_function_hidden(net->ann, FANN_SIGMOID_SYMMETRIC);
    fann_set_activation_steepness_hidden(net->ann, 1);
    fann_set_activation_function_output(net->ann, FANN_LINEAR);
    fann_set_activation_steepness_output(net->ann, 1);
    fann_set_train_error_function(net->ann, FANN_ERRORFUNC_LINEAR);
    fann_set_training_algorithm(net->ann, FANN_TRAIN_INCREMENTAL);
    fann_set_learning_momentum(net->ann, GOGH_MOMENTUM);
    assert(fann_get_total_connections(net->ann) == gogh_net_count_weights(nin, hidden, layers));
    if (r)
        init_weights(net, hidden, layers, r);
    return net;
}

void gogh_net_free(gogh_net *net)
{
    if (!net)
        return;
    fann_destroy(net->ann);
    free(net);
}

int gogh_net_inputs(const gogh_net *net)
{
    return net->nin;
}

size_t gogh_net_nweights(const gogh_net *net)
{
    return fann_get_total_connections(net->ann);
}

/* The weights are read and written through FANN's public struct fann:
 * its weights[] array is in the order fann_get_connection_array() lists
 * the connections, and fann_set_weight_array() searches the whole network
 * for every connection it sets (quadratic: seconds for a large net, and a
 * stored net is loaded on every command that uses it). */
void gogh_net_get_weights(const gogh_net *net, double *w)
{
    size_t n = gogh_net_nweights(net);
    for (size_t i = 0; i < n; i++)
        w[i] = net->ann->weights[i];
}

void gogh_net_set_weights(gogh_net *net, const double *w)
{
    size_t n = gogh_net_nweights(net);
    for (size_t i = 0; i < n; i++)
        net->ann->weights[i] = (fann_type)w[i];
}

void gogh_net_run(gogh_net *net, const double *in, double *out)
{
    fann_type x[3 * GOGH_MAX_PSI + 2 * GOGH_MAX_ACCELS + 8];
    assert((size_t)net->nin <= sizeof x / sizeof *x);
    for (int i = 0; i < net->nin; i++)
        x[i] = (fann_type)in[i];
    const fann_type *y = fann_run(net->ann, x);
    for (int k = 0; k < GOGH_NOUT; k++)
        out[k] = y[k];
}

void gogh_rows_error(gogh_net *net, const gogh_rows *r, gogh_split_err *e)
{
    assert(r->nin == net->nin);
    double se = 0, ae = 0, out[GOGH_NOUT];
    for (size_t i = 0; i < r->n; i++) {
        gogh_net_run(net, r->x + i * (size_t)r->nin, out);
        for (int k = 0; k < GOGH_NOUT; k++) {
            size_t at = i * GOGH_NOUT + (size_t)k;
            double d = (fmax(out[k], 0) - r->y[at]) * r->w[at];
            se += d * d;
            ae += fabs(d);
        }
    }
    double outputs = (double)(r->n * GOGH_NOUT);
    e->rows = r->n;
    e->loss = r->n ? se / outputs : NAN;
    e->mae = r->n ? ae / outputs : NAN;
}

/* The rows in FANN's number type, one array for inputs, one for targets. */
static fann_type *to_fann(const double *v, size_t n)
{
    fann_type *f = xmalloc((n ? n : 1) * sizeof *f);
    for (size_t i = 0; i < n; i++)
        f[i] = (fann_type)v[i];
    return f;
}

/* After an epoch: when its loss on the validation rows is the lowest so
 * far, its weights go to best. */
static void keep_if_best(gogh_net *net, const gogh_rows *val, double *best, double *best_loss)
{
    gogh_split_err e;
    gogh_rows_error(net, val, &e);
    if (e.loss < *best_loss) {
        *best_loss = e.loss;
        gogh_net_get_weights(net, best);
    }
}

void gogh_net_train(gogh_net *net, const gogh_rows *train, const gogh_rows *val,
                    const gogh_train_params *p, rng *r, const gogh_net_progress *np)
{
    assert(train->nin == net->nin && val->nin == net->nin);
    size_t n = train->n;
    fann_type *x = to_fann(train->x, n * (size_t)net->nin), *y = to_fann(train->y, n * GOGH_NOUT);
    size_t *order = xmalloc((n ? n : 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    double *best = xmalloc(gogh_net_nweights(net) * sizeof *best), best_loss = INFINITY;
    fann_set_learning_rate(net->ann, (float)p->learning_rate);
    for (int epoch = 0; epoch < p->epochs && n > 0; epoch++) {
        rng_shuffle(r, order, n, sizeof *order);
        for (size_t i = 0; i < n; i++)
            fann_train(net->ann, x + order[i] * (size_t)net->nin, y + order[i] * GOGH_NOUT);
        if (val->n)
            keep_if_best(net, val, best, &best_loss);
        if (np && np->prog && np->prog->fn)
            np->prog->fn(np->prog->ctx, np->base + np->span * (epoch + 1) / p->epochs);
    }
    if (isfinite(best_loss))
        gogh_net_set_weights(net, best);
    free(best);
    free(order);
    free(x);
    free(y);
}
