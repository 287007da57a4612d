/**
 * Password hashes in tests are made at the lowest cost a server accepts (PASSWORD_COST 10, a thirtieth
 * of the shipped work): sign-ups and sign-ins were most of the CPU of the account files. The tests of the
 * sign-in timing and of the hashing queue run at the shipped cost, where hashes take long enough to count.
 */
export const TEST_PASSWORD_COST = 10;
