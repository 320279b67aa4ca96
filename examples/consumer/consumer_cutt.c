/* A cuTT program against an installed cuperm_cutt (CMake: cuperm::cuperm_cutt;
 * pkg-config: cc consumer_cutt.c $(pkg-config --cflags --libs cuperm_cutt)).
 * Needs no GPU: a plan with rank 0 is refused with a message, before any device work. */
#include <stdio.h>

#include <cutt.h>

int main(void)
{
    cuttHandle plan;
    int dim[1] = {4}, perm[1] = {0};
    cuttResult r = cuttPlan(&plan, 0, dim, perm, 4, 0);
    printf("cuttPlan(rank 0): %d: %s\n", (int)r, cuttGetLastErrorMessage());
    return r == CUTT_INVALID_PARAMETER && cuttGetLastErrorMessage()[0] ? 0 : 1;
}
