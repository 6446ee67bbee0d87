#include <stdio.h>
int main(void) { puts("topocoll " TC_VERSION); return 0; }
