/* cuperm-bench: benchmarks cuperm's transposes on suites from the literature
 * (TTC, cuTT) and reports bandwidth against a same-run device copy. */
#include <stdio.h>

#include <cuperm.h>

#include "args.h"
#include "suites.h"

int main(int argc, char** argv)
{
    bench_options opt;
    char err[512];
    if (bench_parse_args(argc, argv, &opt, err, sizeof err) != 0) {
        fprintf(stderr, "cuperm-bench: %s\n", err);
        return 2;
    }
    if (opt.help) {
        bench_print_usage(argv[0]);
        return 0;
    }
    if (opt.version) {
        int v = cupermGetVersion();
        printf("cuperm-bench, cuperm %d.%d.%d\n", v / 10000, v / 100 % 100, v % 100);
        return 0;
    }
    const bench_suite* suite = bench_suite_find(opt.suite);
    return suite->run(suite, &opt);
}
