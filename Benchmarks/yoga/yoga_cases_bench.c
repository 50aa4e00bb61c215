/*
 * yoga_cases_bench.c - times Yoga 3.2.1 (compiled inside the PyPI wheel pyyoga 0.1.0) on any
 * FORMAT.md case, read through the line format that cases_to_ops.py writes. The timing method
 * and output are those of shared/reference/yoga_bench.c (which only knows the five bench
 * trees): build once, check the frames, then median over rounds of N layouts alternating
 * LTR/RTL so every node is laid out again:
 *     tree<TAB>nodes<TAB>ns_per_layout<TAB>ns_per_node
 * '#' lines are information; `check ok` / `check MISMATCH` report the case's own layout.
 *
 *   cc -O2 -rdynamic yoga_cases_bench.c -o yoga_cases_bench -ldl -lm
 *   python3 cases_to_ops.py FILE.json > f.ops
 *   ./yoga_cases_bench PATH/_pyyoga*.so f.ops [--check-only] [--tree NAME] [--rounds R]
 *
 * Like yoga_bench.c, the library is opened with dlopen(); every setter is looked up by the
 * name the ops file gives. -rdynamic exports the inert stand-ins below for the Python data
 * symbols the pybind11 extension binds at load time; no Python code ever runs.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PYSTUB(name) char name[512] __attribute__((aligned(64), used))
PYSTUB(PyBaseObject_Type); PYSTUB(PyByteArray_Type); PYSTUB(PyCFunction_Type);
PYSTUB(PyCapsule_Type); PYSTUB(PyDict_Type); PYSTUB(PyExc_BufferError);
PYSTUB(PyExc_ImportError); PYSTUB(PyExc_IndexError); PYSTUB(PyExc_MemoryError);
PYSTUB(PyExc_OverflowError); PYSTUB(PyExc_RuntimeError); PYSTUB(PyExc_SystemError);
PYSTUB(PyExc_TypeError); PYSTUB(PyExc_ValueError); PYSTUB(PyFloat_Type);
PYSTUB(PyInstanceMethod_Type); PYSTUB(PyMethod_Type); PYSTUB(PyModule_Type);
PYSTUB(PyProperty_Type); PYSTUB(PyStaticMethod_Type); PYSTUB(PyType_Type);
PYSTUB(_Py_FalseStruct); PYSTUB(_Py_NoneStruct); PYSTUB(_Py_NotImplementedStruct);
PYSTUB(_Py_TrueStruct); PYSTUB(PyObject_GenericGetDict); PYSTUB(PyObject_GenericSetDict);

typedef void *YGNode;
typedef void *YGConfig;
typedef struct { float width, height; } YGSizeT;
typedef YGSizeT (*MeasureFn)(YGNode, float, int, float, int);
enum { MM_UNDEFINED = 0, MM_EXACTLY = 1, MM_AT_MOST = 2 };

static void *lib;
static YGConfig (*ConfigNew)(void);
static void (*ConfigSetPointScaleFactor)(YGConfig, float);
static void (*ConfigSetUseWebDefaults)(YGConfig, _Bool);
static void (*ConfigSetErrata)(YGConfig, int);
static YGNode (*NodeNewWithConfig)(YGConfig);
static void (*NodeFreeRecursive)(YGNode);
static void (*NodeInsertChild)(YGNode, YGNode, size_t);
static size_t (*NodeGetChildCount)(YGNode);
static void (*NodeSetMeasureFunc)(YGNode, MeasureFn);
static void (*NodeSetContext)(YGNode, void *);
static void *(*NodeGetContext)(YGNode);
static int (*StyleGetFlexDirection)(YGNode);
static void (*CalculateLayout)(YGNode, float, float, int);
static float (*LayoutGetLeft)(YGNode), (*LayoutGetTop)(YGNode), (*LayoutGetWidth)(YGNode),
    (*LayoutGetHeight)(YGNode);

static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  if (!p) { fprintf(stderr, "missing symbol %s\n", name); exit(2); }
  return p;
}

static void load_api(const char *so) {
  lib = dlopen(so, RTLD_LAZY | RTLD_LOCAL);
  if (!lib) { fprintf(stderr, "dlopen %s: %s (built without -rdynamic?)\n", so, dlerror()); exit(2); }
#define L(var, name) *(void **)&var = sym(name)
  L(ConfigNew, "YGConfigNew");
  L(ConfigSetPointScaleFactor, "YGConfigSetPointScaleFactor");
  L(ConfigSetUseWebDefaults, "YGConfigSetUseWebDefaults");
  L(ConfigSetErrata, "YGConfigSetErrata");
  L(NodeNewWithConfig, "YGNodeNewWithConfig");
  L(NodeFreeRecursive, "YGNodeFreeRecursive");
  L(NodeInsertChild, "YGNodeInsertChild");
  L(NodeGetChildCount, "YGNodeGetChildCount");
  L(NodeSetMeasureFunc, "YGNodeSetMeasureFunc");
  L(NodeSetContext, "YGNodeSetContext");
  L(NodeGetContext, "YGNodeGetContext");
  L(StyleGetFlexDirection, "YGNodeStyleGetFlexDirection");
  L(CalculateLayout, "YGNodeCalculateLayout");
  L(LayoutGetLeft, "YGNodeLayoutGetLeft");
  L(LayoutGetTop, "YGNodeLayoutGetTop");
  L(LayoutGetWidth, "YGNodeLayoutGetWidth");
  L(LayoutGetHeight, "YGNodeLayoutGetHeight");
#undef L
}

/* ------------------------------------------------------------------ measure functions */
/* Node context: a Leaf, for both measure kinds. */
typedef struct { int text; float w, h; char *words; } Leaf;

static YGSizeT bench_leaf_measure(YGNode n, float w, int wm, float h, int hm) {
  Leaf *leaf = NodeGetContext(n);
  YGSizeT s = {wm == MM_UNDEFINED ? leaf->w : w, hm == MM_UNDEFINED ? leaf->h : h};
  return s;
}

/* Upstream's test measurer (tests/util/TestUtil.cpp), as shared/conformance/yoga/README.md
   describes it: 10x10 per character, words split on single spaces. */
static float text_height(const char *text, float wrap, float cw, float ch) {
  size_t len = strlen(text);
  if ((float)len * cw <= wrap) return ch;
  float lines = 1, line = 0;
  const char *p = text;
  for (;;) {
    const char *sp = strchr(p, ' ');
    size_t wl = sp ? (size_t)(sp - p) : strlen(p);
    float ww = (float)wl * cw;
    if (ww > wrap) { if (line > 0) lines++; lines++; line = 0; }
    else if (line + ww <= wrap) line += ww + cw;
    else { lines++; line = ww + cw; }
    if (!sp) break;
    p = sp + 1;
  }
  return (line == 0 ? lines - 1 : lines) * ch;
}

static float longest_word(const char *text, float cw) {
  float best = 0;
  const char *p = text;
  for (;;) {
    const char *sp = strchr(p, ' ');
    size_t wl = sp ? (size_t)(sp - p) : strlen(p);
    if ((float)wl * cw > best) best = (float)wl * cw;
    if (!sp) break;
    p = sp + 1;
  }
  return best;
}

static YGSizeT text_measure(YGNode n, float w, int wm, float h, int hm) {
  Leaf *leaf = NodeGetContext(n);
  float full = (float)strlen(leaf->words) * 10.0f, mw, mh;
  if (wm == MM_EXACTLY) mw = w;
  else if (wm == MM_AT_MOST) mw = fminf(full, w);
  else mw = full;
  float wrap = StyleGetFlexDirection(n) == 0 ? mw : fmaxf(longest_word(leaf->words, 10), mw);
  mh = text_height(leaf->words, wrap, 10, 10);
  if (hm == MM_EXACTLY) mh = h;
  else if (hm == MM_AT_MOST) mh = fminf(mh, h);
  YGSizeT s = {mw, mh};
  return s;
}

/* ------------------------------------------------------------------------- cases */
typedef struct {
  char name[256];
  YGNode *nodes;
  float (*expected)[4];
  int *has_expected;
  int count, cap;
  float avail_w, avail_h;
  int dir;
} Case;

static void grow(Case *c) {
  if (c->count < c->cap) return;
  c->cap = c->cap ? 2 * c->cap : 64;
  c->nodes = realloc(c->nodes, sizeof(YGNode) * (size_t)c->cap);
  c->expected = realloc(c->expected, sizeof(float[4]) * (size_t)c->cap);
  c->has_expected = realloc(c->has_expected, sizeof(int) * (size_t)c->cap);
}

/* Reads the next case; returns 0 at the end of the file. */
static int read_case(FILE *f, Case *c) {
  static char line[1 << 16];
  YGConfig config = NULL;
  YGNode cur = NULL;
  memset(c, 0, sizeof *c);
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char op[8], fn[128];
    int i1;
    float f1, f2;
    if (sscanf(line, "%7s", op) != 1) continue;
    if (!strcmp(op, "case")) snprintf(c->name, sizeof c->name, "%.255s", line + 5);
    else if (!strcmp(op, "config")) {
      float psf; int web, errata;
      sscanf(line + 7, "%f %d %d", &psf, &web, &errata);
      config = ConfigNew();
      ConfigSetPointScaleFactor(config, psf);
      ConfigSetUseWebDefaults(config, web != 0);
      ConfigSetErrata(config, errata);
    } else if (!strcmp(op, "avail")) {
      char a[32], b[32];
      sscanf(line + 6, "%31s %31s", a, b);
      c->avail_w = strcmp(a, "nan") ? strtof(a, NULL) : NAN;
      c->avail_h = strcmp(b, "nan") ? strtof(b, NULL) : NAN;
    } else if (!strcmp(op, "dir")) sscanf(line + 4, "%d", &c->dir);
    else if (!strcmp(op, "node")) {
      int parent;
      sscanf(line + 5, "%d", &parent);
      if (!config) config = ConfigNew();
      grow(c);
      cur = NodeNewWithConfig(config);
      c->has_expected[c->count] = 0;
      c->nodes[c->count++] = cur;
      if (parent >= 0) NodeInsertChild(c->nodes[parent], cur, NodeGetChildCount(c->nodes[parent]));
    } else if (!strcmp(op, "s") && sscanf(line, "%*s %127s %f", fn, &f1) == 2)
      ((void (*)(YGNode, float))sym(fn))(cur, f1);
    else if (!strcmp(op, "se") && sscanf(line, "%*s %127s %d %f", fn, &i1, &f1) == 3)
      ((void (*)(YGNode, int, float))sym(fn))(cur, i1, f1);
    else if (!strcmp(op, "sa") && sscanf(line, "%*s %127s", fn) == 1)
      ((void (*)(YGNode))sym(fn))(cur);
    else if (!strcmp(op, "sea") && sscanf(line, "%*s %127s %d", fn, &i1) == 2)
      ((void (*)(YGNode, int))sym(fn))(cur, i1);
    else if (!strcmp(op, "si") && sscanf(line, "%*s %127s %d", fn, &i1) == 2)
      ((void (*)(YGNode, int))sym(fn))(cur, i1);
    else if (!strcmp(op, "mb") && sscanf(line, "%*s %f %f", &f1, &f2) == 2) {
      Leaf *leaf = calloc(1, sizeof *leaf);
      leaf->w = f1; leaf->h = f2;
      NodeSetContext(cur, leaf);
      NodeSetMeasureFunc(cur, bench_leaf_measure);
    } else if (!strcmp(op, "mt")) {
      Leaf *leaf = calloc(1, sizeof *leaf);
      leaf->text = 1;
      leaf->words = strdup(line + 3);
      NodeSetContext(cur, leaf);
      NodeSetMeasureFunc(cur, text_measure);
    } else if (!strcmp(op, "x")) {
      float *e = c->expected[c->count - 1];
      sscanf(line + 2, "%f %f %f %f", &e[0], &e[1], &e[2], &e[3]);
      c->has_expected[c->count - 1] = 1;
    } else if (!strcmp(op, "end")) return 1;
    else { fprintf(stderr, "bad line: %s\n", line); exit(2); }
  }
  return 0;
}

static int check(Case *c, int verbose) {
  int bad = 0;
  for (int i = 0; i < c->count; i++) {
    if (!c->has_expected[i]) continue;
    YGNode n = c->nodes[i];
    float g[4] = {LayoutGetLeft(n), LayoutGetTop(n), LayoutGetWidth(n), LayoutGetHeight(n)};
    for (int k = 0; k < 4; k++)
      if (!(fabsf(g[k] - c->expected[i][k]) < 0.01f)) {
        if (verbose && bad < 3)
          printf("# %s node %d: got (%g,%g,%g,%g) want (%g,%g,%g,%g)\n", c->name, i, g[0], g[1],
                 g[2], g[3], c->expected[i][0], c->expected[i][1], c->expected[i][2],
                 c->expected[i][3]);
        bad++;
        break;
      }
  }
  return bad;
}

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int toggle;
static double time_calls(Case *c, long n) {
  double t0 = now_ns();
  for (long k = 0; k < n; k++) {
    toggle ^= 1;
    CalculateLayout(c->nodes[0], c->avail_w, c->avail_h, toggle ? 2 : 1);
  }
  return now_ns() - t0;
}

static void bench(Case *c, int rounds, long iterations) {
  toggle = 0;
  long warm = 2;
  double dt = time_calls(c, warm);
  while (dt < 2e7) { warm *= 2; dt = time_calls(c, warm); }
  long n = iterations > 0 ? iterations : (long)(2e8 / (dt / warm));
  if (n < 2) n = 2;
  if (iterations <= 0 && (n & 1)) n++;
  double *per = malloc(sizeof(double) * (size_t)rounds);
  for (int r = 0; r < rounds; r++) per[r] = time_calls(c, n) / n;
  qsort(per, (size_t)rounds, sizeof(double), cmp_double);
  double med = rounds & 1 ? per[rounds / 2] : 0.5 * (per[rounds / 2 - 1] + per[rounds / 2]);
  printf("# %s: %d rounds x %ld layouts, min %.0f max %.0f ns/layout\n", c->name, rounds, n,
         per[0], per[rounds - 1]);
  printf("%s\t%d\t%.0f\t%.1f\n", c->name, c->count, med, med / c->count);
  fflush(stdout);
  free(per);
}

int main(int argc, char **argv) {
  const char *so = NULL, *ops = NULL, *only = NULL;
  int rounds = 9, check_only = 0;
  long iterations = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tree") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = atol(argv[++i]);
    else if (!strcmp(argv[i], "--check-only")) check_only = 1;
    else if (argv[i][0] != '-' && !so) so = argv[i];
    else if (argv[i][0] != '-' && !ops) ops = argv[i];
    else {
      fprintf(stderr, "usage: %s LIB.so CASES.ops [--check-only] [--tree NAME] [--rounds R] [--iterations N]\n", argv[0]);
      return 2;
    }
  }
  if (!so || !ops) { fprintf(stderr, "need LIB.so and CASES.ops\n"); return 2; }
  if (rounds < 1) rounds = 1;
  load_api(so);
  FILE *f = fopen(ops, "r");
  if (!f) { perror(ops); return 2; }
  printf("# library %s\n# tree\tnodes\tns_per_layout\tns_per_node\n", so);
  Case c;
  int cases = 0, agreeing = 0;
  while (read_case(f, &c)) {
    if (c.count == 0 || (only && strcmp(only, c.name))) goto next;
    CalculateLayout(c.nodes[0], c.avail_w, c.avail_h, c.dir ? c.dir : 1);
    int bad = check(&c, 1);
    cases++;
    if (!bad) agreeing++;
    if (bad) printf("check MISMATCH\t%s\t%d of %d nodes\n", c.name, bad, c.count);
    else if (!check_only) printf("check ok\t%s\t%d nodes\n", c.name, c.count);
    if (!check_only) bench(&c, rounds, iterations);
  next:
    if (c.count) NodeFreeRecursive(c.nodes[0]); /* leaves' contexts are left to process exit */
    free(c.nodes); free(c.expected); free(c.has_expected);
  }
  printf("# %d/%d cases agree with their expected frames\n", agreeing, cases);
  return 0;
}
