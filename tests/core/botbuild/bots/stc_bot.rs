// Smash The Code: drops each pair upright in the emptiest column.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        let mut free = [0; 6];
        for i in 0..34 {
            let line = match lines.next() {
                Some(Ok(line)) => line,
                _ => return,
            };
            if (9..21).contains(&i) {
                for (c, b) in line.bytes().take(6).enumerate() {
                    if b == b'.' {
                        free[c] += 1;
                    }
                }
            }
        }
        let mut best = 0;
        for c in 1..6 {
            if free[c] > free[best] {
                best = c;
            }
        }
        println!("{} 1", best);
        io::stdout().flush().unwrap();
    }
}
