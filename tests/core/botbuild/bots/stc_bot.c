/* Smash The Code: drops each pair upright in the emptiest column. */
#include <stdio.h>

int main(void) {
    char line[256];
    for (;;) {
        int free_cells[6] = {0};
        for (int i = 0; i < 34; i++) {
            if (!fgets(line, sizeof line, stdin)) return 0;
            if (i >= 9 && i < 21)
                for (int c = 0; c < 6; c++) free_cells[c] += line[c] == '.';
        }
        int best = 0;
        for (int c = 1; c < 6; c++)
            if (free_cells[c] > free_cells[best]) best = c;
        printf("%d 1\n", best);
        fflush(stdout);
    }
}
