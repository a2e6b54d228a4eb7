// Smash The Code: drops each pair upright in the emptiest column.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	for {
		var free [6]int
		for i := 0; i < 34; i++ {
			if !in.Scan() {
				return
			}
			line := in.Text()
			if i >= 9 && i < 21 {
				for c := 0; c < 6 && c < len(line); c++ {
					if line[c] == '.' {
						free[c]++
					}
				}
			}
		}
		best := 0
		for c := 1; c < 6; c++ {
			if free[c] > free[best] {
				best = c
			}
		}
		fmt.Println(best, 1)
	}
}
