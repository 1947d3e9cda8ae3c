/*
 * app.h — the TUI's one top-level state (the only mutable global state the
 * project allows lives behind the pointer tui.c creates) and the screen
 * interface.
 *
 * The dashboard is one small state machine (ncdu): `scr` names the current
 * screen; each screen is a ui_screen with a *_draw() that paints the whole
 * screen from this struct and a *_key() that changes it.  Drawing takes the
 * app const: cursors and scroll positions move only in keys, ticks and on
 * entering a screen (every list through listview.h), and what a frame
 * needs besides is computed in the frame.  Key bindings are
 * tables (htop): each entry has its keys, the label and help text the Help
 * screen prints, and its handler, so Help is generated from the very table
 * the dispatcher uses.  A modal (prompt, confirmation, menu) takes the keys
 * while open.
 *
 * Ownership: app owns everything it points to; tui.c frees it on exit.
 */
#ifndef GP_APP_H
#define GP_APP_H

#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "chart.h"
#include "cmp_energy.h"
#include "layout.h"
#include "listview.h"
#include "runset.h"
#include "tablesort.h"
#include "core/runsum.h"
#include "plan/plan.h"
#include "plan/plan_cost.h"

typedef struct app app;

typedef enum scr_id {
    SCR_COMPARE, SCR_STEP, SCR_CLUSTER, SCR_PLANNER, SCR_DATA, SCR_HELP, SCR_COUNT
} scr_id;

/* What a key handler did: not mine (try the next table), done (redraw from
 * state), or quit the program. */
typedef enum ui_rc { UI_PASS = 0, UI_DONE, UI_QUIT } ui_rc;

/* Esc as getch() returns it: curses names no key for it, the byte (ESC,
 * 0x1b) comes through as is once set_escdelay() has waited for more. */
#define KEY_ESC 27
/* Ctrl-C as a key (the terminal's interrupt character is off, tui.c). */
#define KEY_CTRL_C 3
/* The exit status of a dashboard Ctrl-C ended: 128 + SIGINT, as shells report. */
#define EXIT_INTERRUPTED 130

typedef struct ui_key {
    int keys[5];                /* the keys, 0-terminated */
    const char *label;          /* how Help shows them: "→ l" */
    const char *help;
    ui_rc (*fn)(app *a, int key);
} ui_key;                       /* tables end with an entry whose fn is NULL */

typedef struct ui_screen {
    const char *name;           /* tab title */
    int hotkey;                 /* '1'..'5' */
    int fkey;                   /* its function key number (F2..F6) */
    /* Paints the screen from the state; changes nothing. */
    void (*draw)(const app *a);
    ui_rc (*key)(app *a, int key);
    /* The bindings in force right now (a screen's mode may change them). */
    const ui_key *(*keys)(const app *a);
    /* Called on every loop turn; returns 1 when something changed and the
     * screen wants a redraw soon (it keeps the loop ticking). NULL = none. */
    int (*tick)(app *a, double wall_dt);
    /* Called when the screen is switched to. NULL = nothing to do. */
    void (*enter)(app *a);
} ui_screen;

extern const ui_screen scr_compare, scr_step, scr_cluster, scr_planner, scr_data, scr_help;
const ui_screen *ui_screen_of(scr_id id);

/* Dispatches key through a table; UI_PASS when no entry binds it. */
ui_rc ui_dispatch(app *a, const ui_key *keys, int key);
/* The global bindings (screens, help, quit, back). */
const ui_key *ui_global_keys(void);

/* --- modals ----------------------------------------------------------- */

typedef enum modal_kind { MODAL_NONE, MODAL_PROMPT, MODAL_CONFIRM, MODAL_MENU } modal_kind;

#define MODAL_TEXT_MAX 512
#define MODAL_MENU_MAX 32

/* Called when the modal closes: ok = 0 on Esc; text for prompts, choice
 * for menus (index into items). */
typedef void (*modal_done_fn)(app *a, int ok, const char *text, int choice);

typedef struct modal {
    modal_kind kind;
    char title[160];
    char text[MODAL_TEXT_MAX];  /* prompt line being edited */
    size_t cursor;              /* byte offset in text */
    char items[MODAL_MENU_MAX][96];
    int nitems;
    listview menu;              /* the menu's cursor */
    int complete_paths;         /* prompt: Tab completes file paths */
    modal_done_fn done;
} modal;

void modal_prompt(app *a, const char *title, const char *initial, modal_done_fn done);
void modal_confirm(app *a, const char *question, modal_done_fn done);
/* items are copied. */
void modal_menu(app *a, const char *title, const char *const *items, int n, int sel,
                modal_done_fn done);

/* Line editing of a prompt (pure): insert, delete, move. */
void lineedit_key(char *text, size_t cap, size_t *cursor, int key);

/* --- per-screen state ------------------------------------------------- */

/* A list of stored entities: the rows and the widget showing them (its
 * count is the number of items), or why the store could not list them
 * (shown in the list's place: an empty list and an unreadable one differ). */
typedef struct ui_list {
    store_item *items;          /* in the order sort asks (kept on reloading) */
    listview lv;
    char err[GP_ERR_MAX];       /* "" when listed */
    table_sort sort;            /* by name, count, second count, detail or date (o, O) */
} ui_list;

/* The columns a ui_list orders by (ui_list_sort). */
#define UI_LIST_SORT_COLS 5
extern const char *const ui_list_sort_names[UI_LIST_SORT_COLS];
/* Puts l's items in l->sort's order, the cursor staying on its item. */
void ui_list_sort(ui_list *l);

enum { CMP_SETUP, CMP_RUN };
enum { CHART_GPUS, CHART_POWER, CHART_FRAG, CHART_QUEUE };

#define CMP_MAX_CUSTOM 8

typedef struct compare_ui {
    int mode;                   /* CMP_SETUP or CMP_RUN */
    int pane;                   /* setup: 0 traces, 1 clusters, 2 policies */
    ui_list traces, clusters;
    listview pols;              /* registry + custom policies */
    char custom[CMP_MAX_CUSTOM][GP_NAME_MAX];
    int ncustom;
    char picked[RS_MAX][GP_NAME_MAX];   /* chosen policy labels, in order */
    int npicked;
    int queue_metric;           /* 4th chart: 0 queued tasks, 1 mean JCT */
    power_caps caps;            /* GPU power caps of the next run (c), none by default */
    int power_choice;           /* 0 each policy's own model, 1 + POWER_CATS / POWER_EOPC */
    cmp_energy energy;          /* e: price, carbon, PUE of the $energy and CO2e cells */
    int finishing;              /* End pressed: the runs go on in slices (Esc stops) */
    double finish_t0;           /* wall time End was pressed */
    listview runs;              /* run table cursor (Enter focuses it) */
    table_sort runs_sort;       /* the run table's order (o, O) */
    /* The outcome half of each run's summary, recomputed by the tick only
     * when the run's finished-task count changes (run_summarize_outcomes). */
    run_summary outc[RS_MAX];
    const run *outc_rec[RS_MAX];
    size_t outc_n[RS_MAX];
    /* Each run's $energy and CO2e, priced by the tick when its record,
     * timeline, clock or the energy setting changed (scr_compare.c). */
    energy_cost energy_ec[RS_MAX];
    cmp_energy_key energy_key[RS_MAX];
} compare_ui;

typedef struct step_ui {
    listview cands;             /* candidates, in display order */
    listview gpus;              /* the GPUs of the node after the decision */
    int pane;                   /* 0 candidates, 1 cluster after */
    int sort;                   /* 0 policy order, 1 by the last term */
    size_t seen;                /* decisions when the cursor was last set */
} step_ui;

typedef enum heat_view {
    HEAT_ALLOC, HEAT_UTIL, HEAT_POWER, HEAT_FREQ, HEAT_MEM, HEAT_NVIEWS
} heat_view;

typedef struct cluster_ui {
    int from_snapshot;          /* 1: the snapshot below, 0: the focused run */
    heat_view view;
    int sel_gpu;
    int top_line;               /* first heatmap line shown */
    int drill;                  /* 1: the task list of the GPU has the keys */
    listview tasks;             /* the selected GPU's tasks */
    char snap_name[GP_NAME_MAX];
    snapshot *snap;
    cluster *snap_cl;
    catalog *snap_cat;
    cstate *snap_cs;
    /* Loading it in slices (a ui_job): the next row to place, then the
     * next server whose fragmentation to add; shown once loaded. */
    int snap_loading;
    size_t load_row, load_node;
    struct frag_workload *snap_fw;  /* the typical tasks: the snapshot's own */
    double snap_frag;           /* FGD's fragmentation, milli-GPU: computed as it loads */
    double snap_idle_milli;     /* the idle GPU share it is part of */
    table_sort tasks_sort;      /* the task list's order (o, O) */
} cluster_ui;

typedef struct planner_ui {
    listview params;            /* the parameter rows */
    plan_params p;
    plan sw;
    int chart_metric;           /* plan_metric */
    listview results;           /* a viewer: the result rows shown */
    table_sort results_sort;    /* o / O: the column the results are ordered by */
    plan_pricing cost;          /* price, carbon, PUE, years (planner_cost.h) */
    int cost_ready;             /* cost initialised */
} planner_ui;

typedef struct data_ui {
    listview kinds;             /* the left pane: its cursor is a store_kind */
    int pane;                   /* 0 kinds, 1 items */
    ui_list lists[STORE_KIND_COUNT];
    catalog *cat;               /* the profiles, for the detail pane */
    int64_t marked[RS_MAX];     /* runs marked with space for reopening */
    int nmarked;
    /* The profile edit form. */
    int editing;                /* 0, or STORE_GPU / STORE_CPU + 1 */
    gpu_profile gpu;
    cpu_profile cpu;
    listview fields;
    int dirty;
    /* The import being prepared: paths typed, then a format chosen. */
    char import_paths[MODAL_TEXT_MAX];
} data_ui;

/* --- a long action in slices ------------------------------------------- */

/* Something that takes longer than a frame (loading a big snapshot, a jump
 * to a far decision) done a slice per frame, as End in Compare and the
 * Planner's sweep are: the loop calls slice until it returns 1, the status
 * line shows what and how far with "Esc cancels", Esc calls cancel, and
 * every other key is dropped, not replayed on what the action shows. */
typedef struct ui_job {
    char what[96];              /* "Loading snapshot big"; "" = no job */
    double t0;                  /* wall time it began */
    int (*slice)(app *a, double budget_s);      /* 1 once finished */
    double (*progress)(const app *a);           /* 0 to 1 */
    void (*cancel)(app *a);                     /* Esc: stop where it is */
    void (*done)(app *a, double elapsed_s);     /* finished: say so */
} ui_job;

/* Wall time per frame a job spends: long enough that little of the
 * loop's time goes to waiting, short enough for Esc to answer at once. */
#define UI_JOB_SLICE_S 0.15

/* Starts job (copied) and runs its first slice at once: a short one is
 * over before the next frame and shows no progress at all. */
void app_job_start(app *a, const ui_job *job);
/* One slice of the running job (the loop's tick); 1 while one runs. */
int app_job_tick(app *a);
/* Esc cancels the running job; other keys are dropped.  1 when a job
 * took the key. */
int app_job_key(app *a, int key);
int app_job_running(const app *a);

typedef struct ui_caps {
    int utf8;
    int color;
    const char *term;           /* $TERM (NULL: unset), for the chart styles it shows */
    chart_style style;
} ui_caps;

struct app {
    cli_ctx *ctx;
    store *st;
    scr_id scr;
    scr_id back;                /* where Esc and Help return to */
    int rows, cols;
    ui_caps caps;
    char status[256];
    int status_err;
    char search[64];            /* the last / search, for n */
    modal m;
    runset rs;
    compare_ui cmp;
    step_ui step;
    cluster_ui cl;
    planner_ui pl;
    data_ui data;
    listview help;              /* a viewer: the Help lines shown */
    ui_job job;                 /* the long action going on, if any */
    int quit;                   /* set by a confirmation: the loop ends */
    int exit_status;            /* EXIT_OK, or EXIT_INTERRUPTED after Ctrl-C threw work away */
};

/* Status line messages (shown until the next key). */
void app_msg(app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_err(app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Switches screen (remembering where Esc goes back to). */
void app_goto(app *a, scr_id id);
/* Reloads a list of stored entities (the cursor stays on its row when it
 * still exists); 0 or -1 with the error shown and kept in l->err. */
int app_load_list(app *a, ui_list *l, store_kind kind);
/* The name of item i of a ui_list (an lv_name_fn, for searching). */
const char *ui_list_name(const void *list, size_t i);

/* Screens the others call. */
void compare_open_runs(app *a, const int64_t *ids, int n);
void compare_set_input(app *a, const char *trace, const char *cluster_nm);
/* Compare's energy setting (scr_compare_energy.c): e's menu and prompts,
 * and the setting to and from the remembered settings. */
struct ui_settings;
ui_rc compare_energy_key(app *a, int key);
void compare_energy_settings(const app *a, struct ui_settings *s);
void compare_energy_apply(app *a, const struct ui_settings *s);
void cluster_open_snapshot(app *a, const char *name);
void cluster_select_gpu(app *a, int gpu);
void cluster_free_snapshot(cluster_ui *c);
void data_reload(app *a);
/* A placement forward (back when back is 1) of the focused run, from
 * Compare or Step; errors go to the status line. */
void step_decision(app *a, int back);
/* The Step screen's cursors back to their first rows (another decision or
 * another run is shown). */
void step_reset(app *a);
/* Focuses run i (Step and Cluster show it) and puts the run table's
 * cursor on it. */
void compare_focus(app *a, int i);
void planner_free(planner_ui *p);

#endif
