// Smash The Code: drops each pair upright in the emptiest column.
#include <iostream>
#include <string>

int main() {
    std::string line;
    for (;;) {
        int free_cells[6] = {0};
        for (int i = 0; i < 34; i++) {
            if (!std::getline(std::cin, line)) return 0;
            if (i >= 9 && i < 21)
                for (int c = 0; c < 6 && c < (int)line.size(); c++) free_cells[c] += line[c] == '.';
        }
        int best = 0;
        for (int c = 1; c < 6; c++)
            if (free_cells[c] > free_cells[best]) best = c;
        std::cout << best << " 1" << std::endl;
    }
}
