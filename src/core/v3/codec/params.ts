/** Layout of the IOTA 2.0 protocol parameters (TIP-49, type 0), checked byte for byte against the TIP-49 vector. */
import { PROTOCOL_PARAMETERS_V3 } from '../model/codes.ts';
import { family, i64, list, member, struct, text, u16, u32, u64, u8, type Kind, type StructSchema } from './schema.ts';

const STORAGE_SCORE: StructSchema = {
  name: 'storage score parameters',
  fields: [
    u64('storageCost'),
    u8('factorData'),
    u64('offsetOutputOverhead'),
    u64('offsetEd25519BlockIssuerKey'),
    u64('offsetStakingFeature'),
    u64('offsetDelegation'),
  ],
};

const WORK_SCORE: StructSchema = {
  name: 'work score parameters',
  fields: [
    'dataByte',
    'block',
    'input',
    'contextInput',
    'output',
    'nativeToken',
    'staking',
    'blockIssuer',
    'allotment',
    'signatureEd25519',
  ].map((n) => u32(n)),
};

const MANA: StructSchema = {
  name: 'mana parameters',
  fields: [
    u8('bitsCount', 1, 64),
    u8('generationRate'),
    u8('generationRateExponent', 0, 32),
    list('decayFactors', { k: 'int', width: 4 }, { prefix: 2, min: 0, max: 0xffff }),
    u8('decayFactorsExponent', 0, 32),
    u32('decayFactorEpochsSum'),
    u8('decayFactorEpochsSumExponent'),
    u8('annualDecayFactorPercentage', 0, 100),
  ],
};

const CONGESTION: StructSchema = {
  name: 'congestion control parameters',
  fields: [
    u64('minReferenceManaCost'),
    u64('increase'),
    u64('decrease'),
    u32('increaseThreshold'),
    u32('decreaseThreshold'),
    u32('schedulerRate'),
    u32('maxBufferSize'),
    u32('maxValidationBufferSize'),
  ],
};

const VERSION_SIGNALING: StructSchema = {
  name: 'version signaling parameters',
  fields: [u8('windowSize'), u8('windowTargetRatio'), u8('activationOffset')],
};

const REWARDS: StructSchema = {
  name: 'rewards parameters',
  fields: [
    u8('profitMarginExponent'),
    u32('bootstrappingDuration'),
    u8('rewardToGenerationRatio'),
    u64('initialTargetRewardsRate'),
    u64('finalTargetRewardsRate'),
    u8('poolCoefficientExponent'),
    u16('retentionPeriod'),
  ],
};

export const PROTOCOL_PARAMETERS = family('protocol parameters');
member(PROTOCOL_PARAMETERS, PROTOCOL_PARAMETERS_V3, 'protocol parameters', [
  u8('version'),
  text('networkName', 1, 255),
  text('bech32Hrp', 1, 83),
  struct('storageScoreParameters', STORAGE_SCORE),
  struct('workScoreParameters', WORK_SCORE),
  struct('manaParameters', MANA),
  u64('tokenSupply'),
  u32('genesisSlot'),
  i64('genesisUnixTimestamp'),
  u8('slotDurationInSeconds', 1),
  u8('slotsPerEpochExponent', 0, 31),
  u32('stakingUnbondingPeriod'),
  u8('validationBlocksPerSlot'),
  u32('punishmentEpochs'),
  u16('livenessThresholdLowerBound'),
  u16('livenessThresholdUpperBound'),
  u32('minCommittableAge'),
  u32('maxCommittableAge'),
  u32('epochNearingThreshold'),
  struct('congestionControlParameters', CONGESTION),
  struct('versionSignalingParameters', VERSION_SIGNALING),
  struct('rewardsParameters', REWARDS),
  u8('targetCommitteeSize'),
  u8('chainSwitchingThreshold'),
]);

export const PROTOCOL_PARAMETERS_KIND: Kind = { k: 'union', family: PROTOCOL_PARAMETERS };
