// Does not compile: a missing semicolon.
int main() { return 0 }
