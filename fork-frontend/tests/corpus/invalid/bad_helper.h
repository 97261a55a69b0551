/* Included by error_in_include.fork: the error must point here. */
int helper(void) { return missing_value; }
