/* Prints the performance model's features of the launches cuperm would run,
 * one line per case read from stdin: "ELEM_BYTES E0,E1,... P0,P1,...".
 * Output: "class,bytes,run_bytes" (see src/host/model.h). Host only: no GPU.
 * tools/model/fit_model.py feeds it benchmark cases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/model.h"
#include "host/plan_select.h"
#include "host/validate.h"

static int parse_list(char* s, int64_t* v, int max)
{
    int n = 0;
    for (char* tok = strtok(s, ","); tok && n < max; tok = strtok(NULL, ",")) v[n++] = strtoll(tok, NULL, 10);
    return n;
}

int main(void)
{
    const cuperm_device_info_t dev = {0, 9, 0, 132, 50 << 20, 48 << 10, 3.35e12};
    char line[4096], ext_s[2048], perm_s[2048];
    int elem;
    while (fgets(line, sizeof line, stdin)) {
        if (sscanf(line, "%d %2047s %2047s", &elem, ext_s, perm_s) != 3) continue;
        int64_t ext[CUPERM_MAX_RANK], p64[CUPERM_MAX_RANK];
        int perm[CUPERM_MAX_RANK];
        int rank = parse_list(ext_s, ext, CUPERM_MAX_RANK);
        if (parse_list(perm_s, p64, CUPERM_MAX_RANK) != rank) {
            fprintf(stderr, "plan_features: rank mismatch in: %s", line);
            return 2;
        }
        for (int i = 0; i < rank; ++i) perm[i] = (int)p64[i];
        cupermDataType_t type = elem == 1 ? CUPERM_R_8U : elem == 2 ? CUPERM_R_16F : elem == 4 ? CUPERM_R_32F
                              : elem == 8 ? CUPERM_R_64F : CUPERM_C_64F;
        if (cuperm_validate_transpose(rank, ext, perm, type, NULL, NULL)) {
            fprintf(stderr, "plan_features: %s\n", cupermGetLastErrorMessage());
            return 2;
        }
        cuperm_host_plan_t plan;
        cuperm_plan_host(rank, ext, perm, elem, NULL, NULL, &dev, &plan);
        cuperm_model_features_t f;
        cuperm_model_features(plan.has_packed ? &plan.packed : &plan.launch, &f); /* benchmarks move bits */
        printf("%d,%.0f,%.0f\n", (int)f.cls, f.bytes, f.run_bytes);
    }
    return 0;
}
